/**
 * The driver package resolver (src/drivers/packageSource.ts): a run measures the copy the project
 * installed, found as the project's own `require` finds it; the bundled copy stands in only when
 * the project has none, and says so; with neither, the error names the package to install.
 * Real packages on disk in a temporary project, loaded through Node's own resolution.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { ProbeError } from '../../src/core/failure';
import { prepareSlot } from '../../src/core/slot';
import {
  DriverPackage,
  folderOutside,
  locateInProject,
  packageSourceFor,
} from '../../src/drivers/packageSource';
import { driverPackageLabel } from '../../src/shared/driverPackages';
import { createRegistry } from '../../src/drivers/registry';
import { isToProbeThread } from '../../src/shared/probeThreadMessages';
import { PLAN_DEFAULTS } from '../../src/shared/plan';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { tempDir } from '../helpers/tempDir';

/** Writes node_modules/<name> under `dir`: a CommonJS package whose module says where it came from. */
function installFake(dir: string, name: string, version: string, extra: Record<string, unknown> = {}): void {
  const root = path.join(dir, 'node_modules', ...name.split('/'));
  mkdirSync(path.join(root, 'lib'), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name, version, ...extra }));
  writeFileSync(path.join(root, 'lib', 'index.js'), `module.exports = { from: ${JSON.stringify(dir)} };`);
  writeFileSync(
    path.join(root, 'lib', 'http.js'),
    `module.exports = { sub: 'http', from: ${JSON.stringify(dir)} };`,
  );
}

const bundled = () => ({ from: 'bundled' });

test("the project's installed copy is loaded and recorded with its version", async () => {
  const app = tempDir('pkg-app');
  installFake(app, 'fake-db-client', '8.11.3', { main: 'lib/index.js' });
  const pkg = new DriverPackage('fake-db-client', bundled);
  const source = await pkg.load({ projectDirs: [app] });
  assert.deepEqual(source, { package: 'fake-db-client', version: '8.11.3', source: 'project' });
  assert.deepEqual(pkg.module, { from: app });
  assert.deepEqual(pkg.source, source);
});

test('a folder below the project finds the package as require would (node_modules up the tree)', async () => {
  const app = tempDir('pkg-up');
  installFake(app, 'fake-db-client', '1.0.0', { main: 'lib/index.js' });
  const nested = path.join(app, 'config', 'probes');
  mkdirSync(nested, { recursive: true });
  const found = locateInProject('fake-db-client', [nested]);
  assert.equal(found?.version, '1.0.0');
  assert.equal(found?.root, path.join(app, 'node_modules', 'fake-db-client'));
});

test("a workspace's copy found in a parent folder is named by that folder, never as the workspace's", async () => {
  const parent = tempDir('pkg-parent');
  installFake(parent, 'fake-db-client', '8.23.1', { main: 'lib/index.js' });
  const workspace = path.join(parent, 'ws');
  mkdirSync(workspace, { recursive: true });
  const bound = { projectDirs: [workspace], projectLabel: 'your workspace', foldersBound: true };
  const outside = await new DriverPackage('fake-db-client', bundled).load(bound);
  const modules = path.join(parent, 'node_modules');
  assert.deepEqual(outside, {
    package: 'fake-db-client',
    version: '8.23.1',
    source: 'project',
    folder: modules,
  });
  assert.equal(
    driverPackageLabel(outside, 'your workspace'),
    `fake-db-client 8.23.1 from ${modules} (outside your workspace)`,
  );
  // Inside the workspace folder (another one: Node caches a folder's resolution): its own, as before.
  const own = path.join(parent, 'own');
  installFake(own, 'fake-db-client', '8.11.3', { main: 'lib/index.js' });
  const inside = await new DriverPackage('fake-db-client', bundled).load({ ...bound, projectDirs: [own] });
  assert.deepEqual(inside, { package: 'fake-db-client', version: '8.11.3', source: 'project' });
  assert.equal(driverPackageLabel(inside, 'your workspace'), 'fake-db-client 8.11.3 from your workspace');
  assert.equal(folderOutside(path.join(own, 'node_modules', 'x'), [own]), undefined);
});

test('a subpath of a scoped package resolves through its exports map, versioned by the package', async () => {
  const app = tempDir('pkg-scoped');
  installFake(app, '@fake/client', '0.18.0', {
    exports: { '.': './lib/index.js', './http': './lib/http.js' },
  });
  const pkg = new DriverPackage('@fake/client/http', bundled);
  const source = await pkg.load({ projectDirs: [app] });
  assert.deepEqual(source, { package: '@fake/client', version: '0.18.0', source: 'project' });
  assert.deepEqual(pkg.module, { sub: 'http', from: app });
});

test('the first folder that has the package wins (the config file before the working directory)', async () => {
  const [first, second] = [tempDir('pkg-first'), tempDir('pkg-second')];
  installFake(second, 'fake-db-client', '2.0.0', { main: 'lib/index.js' });
  installFake(first, 'fake-db-client', '1.0.0', { main: 'lib/index.js' });
  const source = await new DriverPackage('fake-db-client', bundled).load({ projectDirs: [first, second] });
  assert.equal(source.version, '1.0.0');
});

test('without the package in the project, the bundled copy is used and the note says what to install', async () => {
  const app = tempDir('pkg-none');
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0' }));
  // A real package of the repository stands for the bundled copy: its version is known.
  const pkg = new DriverPackage('hdr-histogram-js', () => ({ from: 'bundled' }));
  const source = await pkg.load({ projectDirs: [app], projectLabel: 'your project' });
  assert.equal(source.source, 'bundled');
  assert.match(source.version, /^\d+\.\d+\.\d+/);
  assert.deepEqual(pkg.module, { from: 'bundled' });
  assert.match(
    source.note ?? '',
    /hdr-histogram-js is not installed in your project; measured with the hdr-histogram-js \S+ bundled with dbprobe/,
  );
  assert.match(source.note ?? '', /npm install hdr-histogram-js/);
});

test('a folder in no npm project (no package.json up the tree): bundled, and no note to act on', async () => {
  const bare = tempDir('pkg-bare');
  const source = packageSourceFor('hdr-histogram-js', { projectDirs: [bare], projectLabel: 'your project' });
  assert.equal(source?.source, 'bundled');
  assert.equal(source?.note, undefined);
});

test('no project searched (an untrusted workspace): bundled, with the reason as the note', async () => {
  const source = packageSourceFor('hdr-histogram-js', {
    projectDirs: [],
    bundledBecause: 'the workspace is not trusted',
  });
  assert.equal(source?.source, 'bundled');
  assert.match(source?.note ?? '', /bundled with dbprobe: the workspace is not trusted/);
});

test('missing everywhere: the error names the package to install', async () => {
  const app = tempDir('pkg-missing');
  const pkg = new DriverPackage('fake-missing-client', () => {
    throw new Error("Cannot find module 'fake-missing-client'");
  });
  await assert.rejects(pkg.load({ projectDirs: [app] }), (error: Error) => {
    assert.match(error.message, /fake-missing-client is neither installed in your project/);
    assert.match(error.message, /npm install fake-missing-client/);
    assert.ok(error.message.includes(app), 'names where it looked');
    return true;
  });
});

test("the registry's pg driver loads the project's pg and records it", async () => {
  const app = tempDir('pkg-pg');
  installFake(app, 'pg', '8.11.3', { main: 'lib/index.js' });
  const registry = createRegistry(undefined, { projectDirs: [app] });
  // Before the load: what it would choose; after: what it chose.
  assert.deepEqual(registry.packageSource('pg'), { package: 'pg', version: '8.11.3', source: 'project' });
  const driver = await registry.load('pg');
  assert.deepEqual(driver.packages?.[0]?.source, { package: 'pg', version: '8.11.3', source: 'project' });
  assert.deepEqual(registry.packageSource('pg'), { package: 'pg', version: '8.11.3', source: 'project' });
});

test('the probe thread accepts the project to look in, and refuses a malformed one', () => {
  const start = {
    type: 'start',
    plan: { ...PLAN_DEFAULTS, targets: [] },
    connections: {},
    secrets: [],
    location: { kind: 'local', label: 'this machine' },
  };
  assert.equal(
    isToProbeThread({ ...start, packages: { projectDirs: ['/app'], projectLabel: 'your workspace' } }),
    true,
  );
  assert.equal(isToProbeThread({ ...start, packages: { projectDirs: '/app' } }), false);
  assert.equal(isToProbeThread({ ...start, packages: { projectDirs: [], bundledBecause: 3 } }), false);
});

test('a target whose client is missing everywhere fails as config, naming the package to install once', async () => {
  const app = tempDir('pkg-slot');
  const missing = new DriverPackage('fake-missing-client', () => {
    throw new Error("Cannot find module 'fake-missing-client'");
  });
  const registry = fakeRegistry([fakeDriver('fakedb', new FakeClock(), {}, new FakeDriverStats())]);
  const failing = {
    ...registry,
    load: async () => {
      await missing.load({ projectDirs: [app] });
      return registry.load('fakedb');
    },
  };
  const slot = await prepareSlot(
    { name: 't', driver: 'fakedb', connection: 'env:X' },
    failing,
    async () => 'fake://user:pw@127.0.0.1/db',
    () => undefined,
  );
  assert.ok(slot.setupError instanceof ProbeError);
  assert.equal(slot.setupError.errorClass, 'config');
  assert.match(
    slot.setupError.message,
    /^driver fakedb could not load its package fake-fakedb: the npm package fake-missing-client is neither installed in your project/,
  );
  assert.equal(slot.setupError.message.match(/npm install/g)?.length, 1, slot.setupError.message);
});

test("a registry given a function reads it at each load: the editor's trust and folders change", async () => {
  const [older, newer] = [tempDir('pkg-older'), tempDir('pkg-newer')];
  installFake(older, 'pg', '8.11.3', { main: 'lib/index.js' });
  installFake(newer, 'pg', '8.16.0', { main: 'lib/index.js' });
  let lookup: { projectDirs: string[] } | undefined = { projectDirs: [older] };
  const registry = createRegistry(undefined, () => lookup);
  assert.equal((await registry.load('pg')).packages?.[0]?.source?.version, '8.11.3');
  lookup = { projectDirs: [newer] };
  assert.equal((await registry.load('pg')).packages?.[0]?.source?.version, '8.16.0');
  assert.equal(registry.packageSource('pg')?.version, '8.16.0');
  // No project (an untrusted workspace, no folder): the bundled copy.
  lookup = undefined;
  assert.equal((await registry.load('pg')).packages?.[0]?.source?.source, 'bundled');
});
