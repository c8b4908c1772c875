/**
 * A target's TLS trust (ConnectOptions.tls) as Node's TLS options: what tls.connect takes, and with
 * it pg's and mysql2's `ssl`, ioredis's `tls`, mongodb's client options, ws and undici's connector.
 * Nothing here turns TLS on: the connection string does.
 */
import type { ConnectTls } from '../core/driver';

export interface NodeTlsTrust {
  /** PEM CA certificates trusted in place of the system store. */
  ca?: string;
  /** Only ever false, and only when the target asked for `tls.insecure`. */
  rejectUnauthorized?: false;
  /** The target's TLS version ceiling (`tls.maxVersion`). */
  maxVersion?: 'TLSv1.2' | 'TLSv1.3';
}

export function nodeTlsTrust(tls: ConnectTls | undefined): NodeTlsTrust {
  const ceiling = tls?.maxVersion ? { maxVersion: tls.maxVersion } : {};
  if (tls?.insecure) return { rejectUnauthorized: false, ...ceiling };
  return tls?.ca !== undefined ? { ca: tls.ca, ...ceiling } : ceiling;
}

/** True when the target sets anything a driver must pass to its TLS (trust or a version ceiling). */
export function hasTlsTrust(tls: ConnectTls | undefined): boolean {
  return tls?.insecure === true || tls?.ca !== undefined || tls?.maxVersion !== undefined;
}
