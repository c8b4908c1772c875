/**
 * One stderr line per target whose certificates were not checked, whether the target asked
 * (`tls.insecure`) or its connection string did (`sslmode=no-verify`...): the report, the JSON and
 * the panel say it from the same TargetInfo, and a run in a terminal or a CI log must not be quieter.
 */
import type { RunResult } from '../shared/result';
import { tlsNotVerifiedSentence, unverifiedTargets } from '../shared/tlsNotVerified';

export function tlsWarningLines(result: RunResult, where = ''): string[] {
  return unverifiedTargets(result.targets).map(
    (target) => `dbprobe: ${tlsNotVerifiedSentence(target)}${where ? ` (measured${where})` : ''}`,
  );
}
