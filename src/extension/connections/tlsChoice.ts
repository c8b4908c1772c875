/**
 * Whether a connection string asks for TLS, so Add Connection offers the TLS trust step only where it
 * matters (a plaintext or file: connection has no certificate to check). Pure, tested without VS Code.
 */

const TLS_SCHEMES = new Set(['https:', 'wss:', 'rediss:', 'mysqls:', 'libsql:', 'mongodb+srv:']);
const TLS_PARAMS: Record<string, RegExp> = {
  sslmode: /^(require|verify-ca|verify-full)$/i,
  ssl: /^(true|1|\{.*\})$/i,
  tls: /^(true|1)$/i,
};
const MAX_URL_CHARS = 8_192;

export function asksForTls(connection: string): boolean {
  if (connection.length > MAX_URL_CHARS) return false;
  let url: URL;
  try {
    url = new URL(connection);
  } catch {
    return false;
  }
  if (TLS_SCHEMES.has(url.protocol)) return true;
  for (const [name, accepted] of Object.entries(TLS_PARAMS)) {
    const value = url.searchParams.get(name);
    if (value !== null && accepted.test(value)) return true;
  }
  return false;
}
