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
  // A host-name-only bypass still checks the certificate's chain (a self-signed one fails every
  // connect): what is left unchecked is whose certificate it is.
  if (why.endsWith('(no host name check)'))
    return `TLS not verified for ${target.name}: ${why}; the server certificate must still come from a trusted CA, but not one issued for this host, so these figures may come from another server holding such a certificate.`;
  return `TLS not verified for ${target.name}: ${why}; the connections were encrypted, but the server certificate was not checked, so these figures may come from an impostor or a proxy in between.`;
}

/** The targets whose certificate checks differ between two runs of them (compare's BASE and HEAD). */
export function tlsDifferences(
  base: readonly TargetInfo[],
  head: readonly TargetInfo[],
): { target: string; unverifiedIn: 'BASE' | 'HEAD' }[] {
  return head.flatMap((h) => {
    const b = base.find((t) => t.name === h.name);
    if (!b || Boolean(b.tls?.insecure) === Boolean(h.tls?.insecure)) return [];
    return [{ target: h.name, unverifiedIn: h.tls?.insecure ? ('HEAD' as const) : ('BASE' as const) }];
  });
}
