/**
 * Prisma 7 over the driver's own pg client, through @prisma/adapter-pg: the client an app's
 * `prisma generate` makes, built here from the same runtime call its generated code makes, with an
 * empty data model (the workload is raw SQL: `$queryRawUnsafe`), and a one-client pool in front of
 * the driver's connection so Prisma's queries go over that socket.
 */
import { installedVersion } from '../packageVersion';
import type { LayerStarter } from './layerSession';
import { importLayerPackage } from './layerImport';

interface PrismaClientLike {
  $queryRawUnsafe(query: string): PromiseLike<unknown>;
  $disconnect(): Promise<void>;
}
type PrismaClientClass = new (options: { adapter: unknown }) => PrismaClientLike;
interface PrismaRuntime {
  getPrismaClient(config: unknown): PrismaClientClass;
}
interface PgModule {
  Pool: { prototype: object };
}
interface PgLikeClient {
  query(...args: unknown[]): Promise<unknown>;
}

/** Node's WebAssembly (the project's TypeScript libs do not declare it). */
function wasmRuntime(): { Module: new (bytes: Uint8Array) => unknown } {
  return (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => unknown } })
    .WebAssembly;
}

const SCHEMA = 'datasource db {\n  provider = "postgresql"\n}\n';

/** Made once per process, as a generated client module is. */
let clientClass: Promise<PrismaClientClass> | undefined;

function prismaClientClass(): Promise<PrismaClientClass> {
  clientClass ??= (async () => {
    const runtime = await importLayerPackage<PrismaRuntime>('@prisma/client/runtime/client', 'prisma');
    const compiler = '@prisma/client/runtime/query_compiler_fast_bg.postgresql';
    return runtime.getPrismaClient({
      previewFeatures: [],
      clientVersion: installedVersion('@prisma/client') ?? '0.0.0',
      engineVersion: 'none',
      activeProvider: 'postgresql',
      inlineSchema: SCHEMA,
      runtimeDataModel: { models: {}, enums: {}, types: {} },
      parameterizationSchema: { strings: [], graph: 'AAAA' },
      compilerWasm: {
        getRuntime: () => importLayerPackage(`${compiler}.mjs`, 'prisma'),
        getQueryCompilerWasmModule: async () => {
          const { wasm } = await importLayerPackage<{ wasm: string }>(
            `${compiler}.wasm-base64.mjs`,
            'prisma',
          );
          return new (wasmRuntime().Module)(Buffer.from(wasm, 'base64'));
        },
        importName: './query_compiler_fast_bg.js',
      },
    });
  })();
  clientClass.catch(() => (clientClass = undefined));
  return clientClass;
}

export const startPrisma: LayerStarter = async (_driver, client) => {
  const PrismaClient = await prismaClientClass();
  const { PrismaPg } = await importLayerPackage<{ PrismaPg: new (pool: unknown) => unknown }>(
    '@prisma/adapter-pg',
    'prisma',
  );
  // The adapter takes an app's pg.Pool as its own when it is one (instanceof the pg it imports).
  const pg = await importLayerPackage<PgModule | { default: PgModule }>('pg', 'prisma');
  const Pool = 'Pool' in pg ? pg.Pool : pg.default.Pool;
  const prisma = new PrismaClient({ adapter: new PrismaPg(oneClientPool(Pool.prototype, client)) });
  return {
    query: (workload) => prisma.$queryRawUnsafe(workload),
    close: () => prisma.$disconnect(),
  };
};

/** A pg.Pool whose every query, and every client it lends, is the driver's one connection. */
function oneClientPool(poolPrototype: object, client: unknown): object {
  const pg = client as PgLikeClient;
  const lent = {
    query: (...args: unknown[]) => pg.query(...args),
    release: () => undefined,
    on: () => lent,
    removeListener: () => lent,
  };
  const pool: object = Object.assign(Object.create(poolPrototype) as object, {
    options: {},
    query: (...args: unknown[]) => pg.query(...args),
    connect: async () => lent,
    on: () => pool,
    removeListener: () => pool,
    end: async () => undefined,
  });
  return pool;
}
