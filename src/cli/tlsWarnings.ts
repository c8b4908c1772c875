/**
 * One stderr line per target whose certificates were not checked, whether the target asked
 * (`tls.insecure`) or its connection string did (`sslmode=no-verify`...): the report, the JSON and
 * the panel say it from the same TargetInfo, and a run in a terminal or a CI log must not be quieter.
 */
import type { RunResult } from '../shared/result';

export function tlsWarningLines(result: RunResult, where = ''): string[] {
  return result.targets
    .filter((target) => target.tls?.insecure)
    .map(
      (target) =>
        `dbprobe: TLS not verified for target "${target.name}" (${target.driver})${where}: ${target.tls?.insecureBy ?? 'the target sets tls.insecure'}; the connections were encrypted, but the server was not verified, so the figures may come from an impostor or a proxy in between`,
    );
}
