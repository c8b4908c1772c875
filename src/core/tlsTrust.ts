/**
 * A target's TLS trust, made ready before its first sample: the CA file is read once here, so no
 * sample pays for reading it and a missing or malformed file stops the target as a `config` problem
 * before anything connects.
 */
import type { TargetTls } from '../shared/plan';
import type { ConnectTls } from './driver';
import { ProbeError } from './failure';

/** Reads a CA file; a place that must not read local files (a remote runner) passes one that refuses. */
export type CaFileReader = (path: string) => Promise<string>;

const MAX_CA_FILE_BYTES = 1024 * 1024;
const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----';

export const readCaFileFromDisk: CaFileReader = async (path) => {
  // Loaded on use: the Workers bundle, which has no files, never reaches it.
  const { readFile, stat } = await import('node:fs/promises');
  const info = await stat(path);
  if (info.size > MAX_CA_FILE_BYTES) throw new Error(`it is ${info.size} bytes, more than a CA file holds`);
  return readFile(path, 'utf8');
};

export async function resolveTargetTls(
  tls: TargetTls | undefined,
  read: CaFileReader,
): Promise<ConnectTls | undefined> {
  if (!tls) return undefined;
  const ceiling: Pick<ConnectTls, 'maxVersion'> = tls.maxVersion
    ? { maxVersion: `TLSv${tls.maxVersion}` }
    : {};
  if (tls.insecure) return { insecure: true, ...ceiling };
  if (tls.caFile === undefined) return tls.maxVersion ? ceiling : undefined;
  let pem: string;
  try {
    pem = await read(tls.caFile);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ProbeError(
      'config',
      `tls.caFile "${tls.caFile}" could not be read (${reason.slice(0, 300)}); give the path of a PEM file of CA certificates (a relative path starts at the folder of dbprobe.json)`,
    );
  }
  if (!pem.includes(PEM_CERTIFICATE)) {
    throw new ProbeError(
      'config',
      `tls.caFile "${tls.caFile}" holds no PEM certificate (no "${PEM_CERTIFICATE}" line); export the CA certificate in PEM form`,
    );
  }
  return { ca: pem, ...ceiling };
}
