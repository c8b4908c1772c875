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
}

export function nodeTlsTrust(tls: ConnectTls | undefined): NodeTlsTrust {
  if (tls?.insecure) return { rejectUnauthorized: false };
  return tls?.ca !== undefined ? { ca: tls.ca } : {};
}

export function hasTlsTrust(tls: ConnectTls | undefined): boolean {
  return tls?.insecure === true || tls?.ca !== undefined;
}
