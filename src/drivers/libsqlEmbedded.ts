/**
 * libSQL's embedded engine (SQLite in a native module), loaded only when a `file:` target needs it:
 * the HTTP and WebSocket transports load no native code, so they work in the universal VSIX, which
 * ships no native binary. Platform VSIXes ship the engine brotli-compressed (index.node.br: a
 * third smaller than zip's deflate, which keeps each package under 5 MB); it is unpacked beside
 * itself on first use.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import type { Client, Config } from '@libsql/client';

const unbrotli = promisify(brotliDecompress);
/** The compressed engine: the universal and the per-platform builds differ only in this file. */
export const PACKED_ENGINE = 'index.node.br';
const ENGINE = 'index.node';
const MISSING_ENGINE_CODE = 'DBPROBE_LIBSQL_NO_ENGINE';

/** A `file:` target on an installation without libSQL's native engine. */
export class LibsqlEngineMissingError extends Error {
  readonly code = MISSING_ENGINE_CODE;
  constructor(cause: unknown) {
    super(
      `libSQL file: databases need libSQL's embedded SQLite engine, a native module, and this ` +
        `installation has none for ${process.platform}-${process.arch}. The universal DB Latency Probe ` +
        `package ships no native binary (and libSQL publishes none for some platforms, such as ` +
        `win32-arm64), so it probes libSQL only over the network. To probe this file, install the ` +
        `package for your platform (the VS Code Marketplace picks it by itself), or probe a ` +
        `libsql://, https:// or wss:// URL, which needs no native engine.`,
      { cause },
    );
    this.name = 'LibsqlEngineMissingError';
  }
}

export function isLibsqlEngineMissing(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === MISSING_ENGINE_CODE;
}

let unpacked: Promise<void> | undefined;

/** Creates a client for a `file:` URL, unpacking and loading the native engine on first use. */
export async function createEmbeddedClient(config: Config): Promise<Client> {
  unpacked ??= unpackEngine().catch((error: unknown) => {
    unpacked = undefined;
    throw error;
  });
  await unpacked;
  try {
    const embedded = await import('@libsql/client/sqlite3');
    return embedded.createClient(config);
  } catch (error) {
    if (isModuleNotFound(error)) throw new LibsqlEngineMissingError(error);
    throw error;
  }
}

/**
 * Writes index.node beside each index.node.br of libSQL's platform packages (@libsql/<platform>,
 * next to the libsql package) that has none yet. A rename makes the file appear whole, so two
 * processes unpacking at once both end with the same complete file.
 */
async function unpackEngine(): Promise<void> {
  let scope: string;
  try {
    scope = path.join(path.dirname(require.resolve('libsql')), '..', '@libsql');
  } catch (error) {
    if (isModuleNotFound(error)) throw new LibsqlEngineMissingError(error);
    throw error;
  }
  const names = await fs.promises.readdir(scope).catch(() => [] as string[]);
  for (const name of names) {
    const packed = path.join(scope, name, PACKED_ENGINE);
    const engine = path.join(scope, name, ENGINE);
    if (!fs.existsSync(packed) || fs.existsSync(engine)) continue;
    // A unique name, so two processes unpacking at once never write into the same file.
    const partial = `${engine}.${randomUUID()}.partial`;
    try {
      await fs.promises.writeFile(partial, await unbrotli(await fs.promises.readFile(packed)), {
        mode: 0o755,
      });
      await fs.promises.rename(partial, engine);
    } catch (error) {
      await fs.promises.rm(partial, { force: true });
      throw new Error(
        `Could not unpack libSQL's embedded engine into ${path.dirname(engine)} ` +
          `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). ` +
          `It is unpacked once, on the first file: probe, beside the extension's other files: ` +
          `make that folder writable for your user, or probe a libsql://, https:// or wss:// URL.`,
        { cause: error },
      );
    }
  }
}

function isModuleNotFound(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as { code?: unknown }).code === 'MODULE_NOT_FOUND' &&
    /libsql/i.test(error.message.slice(0, 500))
  );
}
