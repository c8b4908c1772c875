/**
 * The database drivers a file says it uses: the modules it imports (`import pg from 'pg'`,
 * `require('mysql2')`, `@neondatabase/serverless`, an ORM's adapter that names its driver) and, for a
 * .sql file, the dialect its language mode names (pgsql, mysql, sqlite). "Probe this query" ranks and
 * pre-ticks the targets that use them: a statement is meant for the database its file talks to.
 * The npm clients the drivers wrap come from the driver catalog; the app-side packages and ORMs that
 * reach the same databases are listed here.
 */
import type { SqlDialect, WorkloadFamily } from '../../core/driver';
import { DRIVER_CATALOG } from '../../drivers/catalog';
import { identAt, isPunct, tokenizeJs } from './jsTokens';

export interface DriverHint {
  /** Where the hint comes from, for the pick's words: "pg", "drizzle-orm/neon-http", "the pgsql mode". */
  from: string;
  family: WorkloadFamily;
  /** Driver ids (catalog) the file uses; empty when only the dialect is known (e.g. `postgres`). */
  drivers: readonly string[];
  dialect?: SqlDialect;
}

type ModuleFact = Omit<DriverHint, 'from'>;

/** Modules that reach a database the catalog's drivers speak to, beside the drivers' own clients. */
const APP_MODULES: Readonly<Record<string, ModuleFact>> = {
  'pg-pool': { family: 'sql', drivers: ['pg'], dialect: 'postgres' },
  'pg-native': { family: 'sql', drivers: ['pg'], dialect: 'postgres' },
  postgres: { family: 'sql', drivers: [], dialect: 'postgres' },
  '@vercel/postgres': { family: 'sql', drivers: ['neon-http', 'neon-ws'], dialect: 'postgres' },
  mysql: { family: 'sql', drivers: ['mysql2'], dialect: 'mysql' },
  mariadb: { family: 'sql', drivers: ['mysql2'], dialect: 'mysql' },
  libsql: { family: 'sql', drivers: ['libsql'], dialect: 'sqlite' },
  'better-sqlite3': { family: 'sql', drivers: [], dialect: 'sqlite' },
  sqlite3: { family: 'sql', drivers: [], dialect: 'sqlite' },
  sqlite: { family: 'sql', drivers: [], dialect: 'sqlite' },
  'node:sqlite': { family: 'sql', drivers: [], dialect: 'sqlite' },
  'bun:sqlite': { family: 'sql', drivers: [], dialect: 'sqlite' },
  redis: { family: 'redis', drivers: ['ioredis'] },
  '@redis/client': { family: 'redis', drivers: ['ioredis'] },
  '@upstash/redis': { family: 'redis', drivers: ['upstash'] },
  mongoose: { family: 'mongo', drivers: ['mongodb'] },
  // ORMs whose import names the driver underneath.
  'drizzle-orm/node-postgres': { family: 'sql', drivers: ['pg'], dialect: 'postgres' },
  'drizzle-orm/neon-http': { family: 'sql', drivers: ['neon-http'], dialect: 'postgres' },
  'drizzle-orm/neon-serverless': { family: 'sql', drivers: ['neon-ws'], dialect: 'postgres' },
  'drizzle-orm/vercel-postgres': { family: 'sql', drivers: ['neon-http', 'neon-ws'], dialect: 'postgres' },
  'drizzle-orm/postgres-js': { family: 'sql', drivers: [], dialect: 'postgres' },
  'drizzle-orm/pg-core': { family: 'sql', drivers: [], dialect: 'postgres' },
  'drizzle-orm/mysql2': { family: 'sql', drivers: ['mysql2'], dialect: 'mysql' },
  'drizzle-orm/planetscale-serverless': { family: 'sql', drivers: ['planetscale'], dialect: 'mysql' },
  'drizzle-orm/mysql-core': { family: 'sql', drivers: [], dialect: 'mysql' },
  'drizzle-orm/libsql': { family: 'sql', drivers: ['libsql'], dialect: 'sqlite' },
  'drizzle-orm/better-sqlite3': { family: 'sql', drivers: [], dialect: 'sqlite' },
  'drizzle-orm/sqlite-core': { family: 'sql', drivers: [], dialect: 'sqlite' },
  '@prisma/adapter-pg': { family: 'sql', drivers: ['pg'], dialect: 'postgres' },
  '@prisma/adapter-neon': { family: 'sql', drivers: ['neon-http', 'neon-ws'], dialect: 'postgres' },
  '@prisma/adapter-planetscale': { family: 'sql', drivers: ['planetscale'], dialect: 'mysql' },
  '@prisma/adapter-mariadb': { family: 'sql', drivers: ['mysql2'], dialect: 'mysql' },
  '@prisma/adapter-libsql': { family: 'sql', drivers: ['libsql'], dialect: 'sqlite' },
};

/** `undici` is the fetch every HTTP driver shares: importing it says nothing about a database. */
const SHARED_TRANSPORTS = new Set(['undici']);

/** Each catalog client (pg, mysql2, @libsql/client...) names the drivers built on it. */
function catalogModules(): Map<string, ModuleFact> {
  const modules = new Map<string, ModuleFact>();
  for (const info of DRIVER_CATALOG) {
    if (SHARED_TRANSPORTS.has(info.packageName)) continue;
    const known = modules.get(info.packageName);
    const dialect = 'dialect' in info ? info.dialect : undefined;
    modules.set(info.packageName, {
      family: info.family,
      drivers: [...(known?.drivers ?? []), info.id],
      dialect,
    });
  }
  return modules;
}

const MODULES: ReadonlyMap<string, ModuleFact> = new Map([
  ...catalogModules(),
  ...Object.entries(APP_MODULES),
]);

/** .sql language modes that name a dialect. */
const LANGUAGE_DIALECTS: Readonly<Record<string, SqlDialect>> = {
  pgsql: 'postgres',
  postgres: 'postgres',
  mysql: 'mysql',
  sqlite: 'sqlite',
};

/** Imports are read from this many tokens at most: they sit at the top of a file. */
const MAX_IMPORT_TOKENS = 20_000;

/** What the file's imports (or its .sql language mode) say about the drivers it uses, deduplicated. */
export function fileDriverHints(text: string, languageId: string): DriverHint[] {
  const dialect = LANGUAGE_DIALECTS[languageId];
  if (dialect) return [{ from: `the ${languageId} language mode`, family: 'sql', drivers: [], dialect }];
  const hints = new Map<string, DriverHint>();
  for (const module of importedModules(text)) {
    const fact = moduleFact(module);
    if (fact && !hints.has(fact.key)) hints.set(fact.key, { from: fact.key, ...fact.fact });
  }
  return [...hints.values()];
}

/** A module by its name, or by its package for a subpath (`mysql2/promise`, `pg/lib/client`). */
function moduleFact(module: string): { key: string; fact: ModuleFact } | undefined {
  const exact = MODULES.get(module);
  if (exact) return { key: module, fact: exact };
  const parts = module.split('/');
  const name = module.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  const fact = MODULES.get(name);
  return fact ? { key: name, fact } : undefined;
}

/** `import ... from 'm'`, `import 'm'`, `export ... from 'm'`, `require('m')`, `import('m')`. */
export function importedModules(text: string): string[] {
  const tokens = tokenizeJs(text, MAX_IMPORT_TOKENS);
  const modules: string[] = [];
  for (let k = 1; k < tokens.length; k++) {
    const token = tokens[k]!;
    if (token.type !== 'string') continue;
    const before = identAt(tokens, k - 1);
    const callee = identAt(tokens, k - 2);
    const called =
      isPunct(tokens[k - 1], '(') &&
      isPunct(tokens[k + 1], ')') &&
      (callee === 'require' || callee === 'import');
    const named = before === 'from' || before === 'import';
    if (called || named) modules.push(token.value);
  }
  return modules;
}
