/**
 * An ORM layer's packages are the app's: loaded from the project the run names, through the one
 * package resolver (src/drivers/packageSource.ts), never from beside dbprobe; the result records the
 * version of the copy loaded; without it the run says what to install before anything connects.
 * A fake `kysely` on disk in a temporary project, loaded through Node's own resolution.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Driver, DriverInfo } from '../../src/core/driver';
import { ProbeError } from '../../src/core/failure';
import { prepareSlot } from '../../src/core/slot';
import { layerImports } from '../../src/drivers/layers/layerImport';
import { loadLayeredDriver } from '../../src/drivers/layers/loadLayer';
import { NO_PROJECT } from '../../src/drivers/packageSource';
import { installedVersion } from '../../src/drivers/packageVersion';
import { createRegistry } from '../../src/drivers/registry';
import { tempDir } from '../helpers/tempDir';

/**
 * node_modules/kysely under `dir`: enough of Kysely's API for the layer, each query answering with
 * the folder it was installed in and the path it took.
 */
function installFakeKysely(dir: string, version: string): void {
  const root = path.join(dir, 'node_modules', 'kysely');
  mkdirSync(root, { recursive: true });
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'kysely', version, main: 'index.js' }),
  );
  const from = JSON.stringify(dir);
  writeFileSync(
    path.join(root, 'index.js'),
    `const sql = () => ({ as: (alias) => ({ alias }) });
sql.raw = (text) => ({ execute: async () => ({ path: 'raw', text, from: ${from} }) });
class Kysely {
  selectNoFrom(selection) { return { execute: async () => ({ path: 'typed', selection, from: ${from} }) }; }
  async destroy() {}
}
class PostgresDialect {}
class MysqlDialect {}
module.exports = { Kysely, PostgresDialect, MysqlDialect, sql };
`,
  );
}

/** A raw pg driver whose connection hands the layer a client and counts its connects. */
function rawPg(): Driver & { connects: number } {
  const driver = {
    connects: 0,
    info: { id: 'pg' } as DriverInfo,
    async connect() {
      driver.connects++;
      return {
        query: async () => 'raw driver',
        close: async () => undefined,
        destroy: () => undefined,
        client: {},
      };
    },
  };
  return driver;
}

const connectOptions = {
  url: 'postgres://127.0.0.1/db',
  signal: new AbortController().signal,
  timeoutMs: 1000,
  options: {},
};

test("the layer's queries go through the project's copy, and the result names its version", async () => {
  const app = tempDir('layer-app');
  installFakeKysely(app, '0.27.1');
  const lookup = { projectDirs: [app], projectLabel: 'your project' };
  const layered = await loadLayeredDriver(rawPg(), 'kysely', lookup);
  const conn = await layered.connect(connectOptions);
  assert.deepEqual(await conn.query('SELECT 1'), { path: 'raw', text: 'SELECT 1', from: app });

  const registry = createRegistry(undefined, lookup);
  assert.deepEqual(registry.layerVersion?.('kysely'), { version: '0.27.1', from: 'your project' });
  const slot = await prepareSlot(
    { name: 'db · kysely', driver: 'pg', connection: 'env:X', orm: 'kysely', rawTwin: 'db' },
    registry,
    async () => 'postgres://127.0.0.1:5432/db',
    () => undefined,
  );
  assert.equal(slot.setupError, undefined);
  assert.deepEqual(slot.info.layer, {
    name: 'kysely',
    package: 'kysely',
    version: '0.27.1',
    from: 'your project',
    query: 'raw',
    over: 'db',
  });
});

test('"ormQuery": "typed" sends the typed query, not the workload', async () => {
  const app = tempDir('layer-typed');
  installFakeKysely(app, '0.27.1');
  const layered = await loadLayeredDriver(rawPg(), 'kysely', { projectDirs: [app] }, 'typed');
  const conn = await layered.connect(connectOptions);
  assert.deepEqual(await conn.query('SELECT 1'), { path: 'typed', selection: { alias: 'one' }, from: app });
});

test("a layer's lazy thenable is taken as an app's await takes it: a native promise, sent a job later", async () => {
  // Drizzle's and Prisma's queries are thenables of their own, sent when `then` is first called; an
  // app's `await` adopts one through one more job, and that job is part of what the layer costs.
  const app = tempDir('layer-thenable');
  const root = path.join(app, 'node_modules', 'kysely');
  mkdirSync(root, { recursive: true });
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'kysely', version: '0.27.1', main: 'index.js' }),
  );
  writeFileSync(
    path.join(root, 'index.js'),
    `const sent = { count: 0 };
const sql = () => ({});
sql.raw = (text) => ({ execute: () => ({ then(ok, failed) { sent.count += 1; return Promise.resolve(text).then(ok, failed); } }) });
class Kysely { async destroy() {} }
class PostgresDialect {}
class MysqlDialect {}
module.exports = { Kysely, PostgresDialect, MysqlDialect, sql, sent };
`,
  );
  const { sent } = (await import(path.join(root, 'index.js'))) as { sent: { count: number } };
  const layered = await loadLayeredDriver(rawPg(), 'kysely', { projectDirs: [app] });
  const conn = await layered.connect(connectOptions);
  const answer = conn.query('SELECT 1');
  assert.ok(answer instanceof Promise, 'a native promise, as `await` makes of a thenable');
  assert.equal(
    sent.count,
    0,
    "not sent within the call: `await` calls a thenable's then in a job of its own",
  );
  assert.equal(await answer, 'SELECT 1');
  assert.equal(sent.count, 1);
});

test('a layer the project lacks is a config error naming what to install, before any connect', async () => {
  const app = tempDir('layer-none');
  const raw = rawPg();
  await assert.rejects(loadLayeredDriver(raw, 'kysely', { projectDirs: [app] }), (error: unknown) => {
    assert.ok(error instanceof ProbeError);
    assert.equal(error.errorClass, 'config');
    assert.match(error.message, /runs your project's own kysely, which is not installed in your project/);
    assert.match(error.message, /npm install kysely/);
    assert.ok(error.message.includes(app), 'names where it looked');
    return true;
  });
  assert.equal(raw.connects, 0);
});

test('the copy beside dbprobe is never used for a layer: no project, no layer (and no version)', async () => {
  assert.ok(installedVersion('kysely'), 'the repository has kysely beside dbprobe');
  assert.equal(createRegistry(undefined, NO_PROJECT).layerVersion?.('kysely'), undefined);
  await assert.rejects(
    loadLayeredDriver(rawPg(), 'kysely', { projectDirs: [], bundledBecause: 'the workspace is not trusted' }),
    /names no project folder \(the workspace is not trusted\); install it in your project \(npm install kysely\)/,
  );
});

test("a layer module that lacks a package of its own names that package, not the layer's", async () => {
  const app = tempDir('layer-peer');
  const pkg = path.join(app, 'node_modules/drizzle-orm');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(path.join(pkg, 'package.json'), '{"name":"drizzle-orm","version":"0.45.4"}');
  writeFileSync(path.join(pkg, 'index.js'), 'module.exports = {};\n');
  // drizzle-orm/planetscale-serverless loads the app's @planetscale/database, which is missing.
  writeFileSync(path.join(pkg, 'planetscale-serverless.js'), "require('@planetscale/database');\n");
  const imports = layerImports('drizzle', { projectDirs: [app] });
  await assert.rejects(imports.load('drizzle-orm/planetscale-serverless'), (error: unknown) => {
    assert.ok(error instanceof ProbeError);
    assert.match(error.message, /needs @planetscale\/database, which is not installed in your project/);
    assert.match(error.message, /npm install @planetscale\/database\)/);
    assert.doesNotMatch(error.message, /npm install drizzle-orm/);
    return true;
  });
});
