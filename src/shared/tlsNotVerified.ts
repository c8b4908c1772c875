/**
 * The one sentence every surface (the Markdown, the CLI's stderr, the panel) says of a target whose
 * server certificates were not checked, whether the target asked (`tls.insecure`) or its connection
 * string did (`sslmode=no-verify`, `tlsAllowInvalidCertificates=true`...). Pure: any room may use it.
 */
import type { TargetInfo } from './result';

/** The targets of a run whose certificates were not checked. */
export function unverifiedTargets(targets: readonly TargetInfo[]): TargetInfo[] {
  return targets.filter((t) => t.tls?.insecure);
}

/** "TLS not verified for pg: the connection string's sslmode=no-verify (...); the connections ..." */
export function tlsNotVerifiedSentence(target: Pick<TargetInfo, 'name' | 'tls'>): string {
  const why = target.tls?.insecureBy ?? 'the target sets tls.insecure';
  return `TLS not verified for ${target.name}: ${why}; the connections were encrypted, but the server certificate was not checked, so these figures may come from an impostor or a proxy in between.`;
}
