/**
 * The libSQL driver as each VSIX ships it, loaded from the package itself (unzipped, with
 * no node_modules of the repo on its path). The universal package, which has no native engine,
 * probes libSQL over HTTP and WebSocket (against the Hrana stand-in on 127.0.0.1) and refuses a
 * file: target with a message that says what to do; this machine's platform package unpacks its
 * compressed engine on the first file: probe and opens the database.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Driver, DriverConnection } from '../../src/core/driver';
import { thisMachineTarget, type VsixIndex } from '../../scripts/package/targets';
import { readZip } from '../../scripts/package/zip';
import { startHranaStandIn, type HranaStandIn } from '../fixtures/hranaStandIn';
import { tempDir } from '../helpers/tempDir';
import { builtVsixPackages } from '../helpers/vsixPackages';

const TOKEN = `hrana-${randomBytes(12).toString('hex')}`;
/** The folder an unzipped package's files live in: the extension's root. */
const EXTENSION = 'extension/';

/** Unzips a .vsix into a fresh folder outside the repo (so no repo node_modules is on its path). */
function unzipExtension(vsix: string): string {
  const root = tempDir('vsix');
  for (const entry of readZip(fs.readFileSync(vsix))) {
    if (!entry.name.startsWith(EXTENSION) || entry.name.endsWith('/')) continue;
    const file = path.join(root, entry.name.slice(EXTENSION.length));
    assert.ok(file.startsWith(root + path.sep), `${entry.name} stays inside the extension folder`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, entry.read());
  }
  return root;
}

/**
 * The packaged extension's libSQL driver, with its npm client chosen as a run chooses it (no project
 * folder: the copy bundled in the package), before anything connects.
 */
async function packagedLibsqlDriver(extensionRoot: string): Promise<Driver> {
  const load = createRequire(path.join(extensionRoot, 'package.json'));
  const driver = (load('./dist/drivers/libsql.js') as { libsqlDriver: Driver }).libsqlDriver;
  await Promise.all((driver.packages ?? []).map((p) => p.load({ projectDirs: [] })));
  return driver;
}

async function selectOne(driver: Driver, url: string): Promise<void> {
  const connection: DriverConnection = await driver.connect({
    url,
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    options: {},
  });
  try {
    await connection.query('SELECT 1');
  } finally {
    await connection.close();
  }
}

describe('libsql as the VSIX packages ship it', () => {
  let index: VsixIndex;
  let standIn: HranaStandIn;
  before(async () => {
    index = builtVsixPackages((line) => console.log(`  ${line}`));
    standIn = await startHranaStandIn({ file: path.join(tempDir('hrana'), 'probe.db'), token: TOKEN });
  });
  after(async () => standIn?.close());

  const vsixFor = (target: string | undefined): string => {
    const built = index.packages.find((p) => p.target === target);
    assert.ok(built, `a package for ${target}`);
    return built.file;
  };

  test('universal: probes over HTTP and WebSocket without a native engine', async () => {
    const root = unzipExtension(vsixFor('universal'));
    assert.ok(!fs.existsSync(path.join(root, 'dist', 'node_modules', 'libsql')), 'no libsql package inside');
    const driver = await packagedLibsqlDriver(root);
    const before = standIn.stats();
    await selectOne(driver, `${standIn.httpUrl}?authToken=${TOKEN}`);
    const afterHttp = standIn.stats();
    assert.ok(afterHttp.requests > before.requests, 'the HTTP query reached the stand-in');
    await selectOne(driver, `${standIn.wsUrl}?authToken=${TOKEN}`);
    assert.equal(standIn.stats().upgrades, afterHttp.upgrades + 1, 'one WebSocket opened');
  });

  test('universal: a file: target is refused with what happened and what to do', async () => {
    const driver = await packagedLibsqlDriver(unzipExtension(vsixFor('universal')));
    const url = `file:${path.join(tempDir('libsql'), 'probe.db')}`;
    const error = await selectOne(driver, url).then(
      () => assert.fail('a file: target cannot open without the native engine'),
      (e: unknown) => e as Error,
    );
    assert.match(error.message, /embedded SQLite engine/);
    assert.match(error.message, /universal DB Latency Probe package ships no native binary/);
    assert.match(error.message, /install the package for your platform/);
    assert.match(error.message, /libsql:\/\/, https:\/\/ or wss:\/\//);
    assert.equal(driver.classify?.(error), 'config');
    assert.ok(!fs.existsSync(url.slice('file:'.length)), 'no database file was created');
  });

  test(`this machine's package (${thisMachineTarget() ?? 'none'}): the first file: probe unpacks the engine`, async () => {
    const root = unzipExtension(vsixFor(thisMachineTarget()));
    const scope = path.join(root, 'dist', 'node_modules', '@libsql');
    const [native] = fs.readdirSync(scope);
    assert.ok(native, 'a native package');
    const engine = path.join(scope, native, 'index.node');
    assert.ok(!fs.existsSync(engine) && fs.existsSync(`${engine}.br`), 'shipped compressed only');
    const started = Date.now();
    const file = path.join(tempDir('libsql'), 'probe.db');
    await selectOne(await packagedLibsqlDriver(root), `file:${file}`);
    console.log(`  first file: probe, engine unpacked included: ${Date.now() - started} ms`);
    assert.ok(fs.statSync(engine).size > 1_000_000, 'the engine was unpacked beside its .br');
    assert.ok(fs.existsSync(file), 'the database file was opened');
    await selectOne(await packagedLibsqlDriver(root), `file:${file}`);
  });
});
