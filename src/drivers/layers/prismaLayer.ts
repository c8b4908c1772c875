/**
 * Prisma 7 over the driver's own client, through its driver adapter (@prisma/adapter-pg,
 * -planetscale, -libsql): the client an app's `prisma generate` makes, built here from the same
 * runtime call its generated code makes, with an empty data model (the workload is raw SQL:
 * `$queryRawUnsafe`), and the adapter handed the driver's connection so Prisma's queries go over
 * that socket. The query compiler is WebAssembly: no Rust engine is needed.
 */
import { appPlanetscaleClient } from './planetscaleClient';
import type { LayerStarter } from './layerSession';
import type { LayerImports } from './layerImport';

interface PrismaClientLike {
  $queryRawUnsafe(query: string): PromiseLike<unknown>;
  $disconnect(): Promise<void>;
}
type PrismaClientClass = new (options: { adapter: unknown }) => PrismaClientLike;
interface PrismaRuntime {
  getPrismaClient(config: unknown): PrismaClientClass;
}
type Provider = 'postgresql' | 'mysql' | 'sqlite';

/** Per driver: the schema's provider and the adapter over the driver's client. */
const ADAPTERS: Record<
  string,
  { provider: Provider; adapter: (client: unknown, imports: LayerImports) => Promise<unknown> }
> = {
  pg: { provider: 'postgresql', adapter: pgAdapter },
  planetscale: { provider: 'mysql', adapter: planetscaleAdapter },
  libsql: { provider: 'sqlite', adapter: libsqlAdapter },
};

/**
 * Made once per copy of the runtime and provider, as a generated client module is: another
 * project's copy (the editor's workspace changed) makes its own.
 */
const clientClasses = new WeakMap<object, Map<Provider, Promise<PrismaClientClass>>>();

async function prismaClientClass(provider: Provider, imports: LayerImports): Promise<PrismaClientClass> {
  const runtime = await imports.load<PrismaRuntime>('@prisma/client/runtime/client');
  const ofRuntime = clientClasses.get(runtime) ?? new Map<Provider, Promise<PrismaClientClass>>();
  clientClasses.set(runtime, ofRuntime);
  let made = ofRuntime.get(provider);
  if (made) return made;
  made = (async () => {
    const compiler = `@prisma/client/runtime/query_compiler_fast_bg.${provider}`;
    return runtime.getPrismaClient({
      previewFeatures: [],
      clientVersion: imports.sourceOf('@prisma/client')?.version ?? '0.0.0',
      engineVersion: 'none',
      activeProvider: provider,
      inlineSchema: `datasource db {\n  provider = "${provider}"\n}\n`,
      runtimeDataModel: { models: {}, enums: {}, types: {} },
      parameterizationSchema: { strings: [], graph: 'AAAA' },
      compilerWasm: {
        getRuntime: () => imports.load(`${compiler}.mjs`),
        getQueryCompilerWasmModule: async () => {
          const { wasm } = await imports.load<{ wasm: string }>(`${compiler}.wasm-base64.mjs`);
          return new (wasmRuntime().Module)(Buffer.from(wasm, 'base64'));
        },
        importName: './query_compiler_fast_bg.js',
      },
    });
  })();
  made.catch(() => ofRuntime.delete(provider));
  ofRuntime.set(provider, made);
  return made;
}

/** Node's WebAssembly (the project's TypeScript libs do not declare it). */
function wasmRuntime(): { Module: new (bytes: Uint8Array) => unknown } {
  return (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => unknown } })
    .WebAssembly;
}

export const startPrisma: LayerStarter = async (driver, client, imports) => {
  const chosen = ADAPTERS[driver];
  if (!chosen) throw new Error(`prisma has no adapter for driver ${driver}`);
  const PrismaClient = await prismaClientClass(chosen.provider, imports);
  const prisma = new PrismaClient({ adapter: await chosen.adapter(client, imports) });
  return {
    query: (workload) => prisma.$queryRawUnsafe(workload),
    close: () => prisma.$disconnect(),
  };
};

interface PgModule {
  Pool: { prototype: object };
}
interface PgLikeClient {
  query(...args: unknown[]): Promise<unknown>;
}

/**
 * The pg adapter takes an app's pg.Pool as its own when it is one (instanceof the pg it imports): a
 * pool whose every query, and every client it lends, is the driver's one connection.
 */
async function pgAdapter(client: unknown, imports: LayerImports): Promise<unknown> {
  const { PrismaPg } = await imports.load<{ PrismaPg: new (pool: unknown) => unknown }>('@prisma/adapter-pg');
  const pgModule = await imports.load<PgModule | { default: PgModule }>('pg');
  const Pool = 'Pool' in pgModule ? pgModule.Pool : pgModule.default.Pool;
  const pg = client as PgLikeClient;
  const lent = {
    query: (...args: unknown[]) => pg.query(...args),
    release: () => undefined,
    on: () => lent,
    removeListener: () => lent,
  };
  const pool: object = Object.assign(Object.create(Pool.prototype) as object, {
    options: {},
    query: (...args: unknown[]) => pg.query(...args),
    connect: async () => lent,
    on: () => pool,
    removeListener: () => pool,
    end: async () => undefined,
  });
  return new PrismaPg(pool);
}

/** The PlanetScale adapter takes a Client of the app's @planetscale/database (see planetscaleClient.ts). */
async function planetscaleAdapter(connection: unknown, imports: LayerImports): Promise<unknown> {
  const { PrismaPlanetScale } = await imports.load<{
    PrismaPlanetScale: new (client: unknown) => unknown;
  }>('@prisma/adapter-planetscale');
  return new PrismaPlanetScale(await appPlanetscaleClient(connection, imports));
}

type LibsqlClientLike = Record<
  'execute' | 'batch' | 'transaction' | 'executeMultiple',
  (...args: unknown[]) => unknown
> & {
  closed: boolean;
  protocol: string;
};
type LibsqlFactory = new (config: unknown) => { createClient(config: unknown): unknown };

/**
 * The libSQL adapter makes its client in `createClient`: a factory whose createClient lends the
 * driver's client instead (closing it is the driver's job, not the adapter's).
 */
async function libsqlAdapter(client: unknown, imports: LayerImports): Promise<unknown> {
  const { PrismaLibSql } = await imports.load<{ PrismaLibSql: LibsqlFactory }>('@prisma/adapter-libsql');
  const libsql = client as LibsqlClientLike;
  const lent = {
    execute: (...args: unknown[]) => libsql.execute(...args),
    batch: (...args: unknown[]) => libsql.batch(...args),
    transaction: (...args: unknown[]) => libsql.transaction(...args),
    executeMultiple: (...args: unknown[]) => libsql.executeMultiple(...args),
    close: () => undefined,
    get closed() {
      return libsql.closed;
    },
    protocol: libsql.protocol,
  };
  class LentClient extends PrismaLibSql {
    override createClient(): unknown {
      return lent;
    }
  }
  return new LentClient({ url: 'lent:' });
}
