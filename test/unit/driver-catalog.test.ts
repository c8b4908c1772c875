/**
 * The driver catalog is the single source of driver ids: everything that lists drivers (registry,
 * build entries, the Worker list, the lint rule, the docs tables, the config schema) must agree.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { DRIVER_CATALOG, DRIVER_IDS } from '../../src/drivers/catalog';
import { createRegistry } from '../../src/drivers/registry';
import { WORKER_DRIVERS } from '../../src/runner/entries/cloudflare';

const root = path.resolve(__dirname, '..', '..');
const requireFromRoot = createRequire(path.join(root, 'package.json'));
const sorted = (values: Iterable<string>): string[] => [...values].sort();

test('every catalogued driver loads through the registry as its own entry', async () => {
  const registry = createRegistry();
  assert.deepEqual(sorted(registry.ids()), sorted(DRIVER_IDS));
  assert.equal(new Set(DRIVER_IDS).size, DRIVER_IDS.length, 'ids are unique');
  for (const info of DRIVER_CATALOG) {
    assert.ok(existsSync(path.join(root, 'src', 'drivers', `${info.module}.ts`)), `${info.id}: module file`);
    const driver = await registry.load(info.id);
    assert.equal(driver.info, info, `${info.id}: the loaded driver carries its catalog entry`);
    assert.ok(
      (info.packages as readonly string[]).includes(info.packageName),
      `${info.id}: packageName is one of its packages`,
    );
  }
  await assert.rejects(registry.load('no-such-driver'), /unknown driver "no-such-driver"/);
});

test('the build makes one lazy bundle per catalogued driver module', () => {
  const { driverEntryPoints } = requireFromRoot('./esbuild.js') as {
    driverEntryPoints: () => Record<string, string>;
  };
  const expected = Object.fromEntries(
    DRIVER_CATALOG.map((info) => [`drivers/${info.module}`, `src/drivers/${info.module}.ts`]),
  );
  assert.deepEqual(driverEntryPoints(), expected);
});

test('the Worker runner offers exactly the drivers marked runsOnWorkers, all over HTTP', () => {
  const expected = DRIVER_CATALOG.filter((info) => info.runsOnWorkers).map((info) => info.id);
  assert.deepEqual(sorted(WORKER_DRIVERS), sorted(expected));
  for (const id of WORKER_DRIVERS) {
    assert.equal(DRIVER_CATALOG.find((info) => info.id === id)?.transport, 'http', `${id} runs over HTTP`);
  }
});

test('the lint rule bans every driver package outside src/drivers, and package.json depends on each', () => {
  const { driverPackagePatterns } = requireFromRoot('./scripts/build/driverCatalog.cjs') as {
    driverPackagePatterns: () => string[];
  };
  const patterns = new Set(driverPackagePatterns());
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const name of DRIVER_CATALOG.flatMap((info) => info.packages)) {
    assert.ok(patterns.has(name) && patterns.has(`${name}/*`), `${name} banned outside src/drivers`);
    assert.ok(manifest.dependencies[name], `${name} is a dependency`);
  }
});

/** The driver table's rows of a Markdown file: id and default workload, in order. */
function driverTableRows(file: string): { id: string; workload: string }[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const header = text.split('\n').findIndex((line) => /^\| driver +\| npm client/.test(line));
  assert.ok(header >= 0, `${file} has the driver table`);
  const rows: { id: string; workload: string }[] = [];
  for (const line of text.split('\n').slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').map((cell) => cell.trim());
    rows.push({ id: (cells[1] ?? '').replace(/`/g, ''), workload: (cells[5] ?? '').replace(/`/g, '') });
  }
  return rows;
}

for (const file of ['README.md', 'docs/providers.md']) {
  test(`${file}'s driver table names the catalog's drivers and default workloads`, () => {
    const rows = driverTableRows(file);
    assert.deepEqual(
      rows.map((row) => row.id),
      DRIVER_CATALOG.map((info) => info.id),
    );
    for (const info of DRIVER_CATALOG) {
      assert.equal(rows.find((row) => row.id === info.id)?.workload, info.defaultQuery, info.id);
    }
  });
}

test("the config schema's driver enum is the catalog's ids", () => {
  const schema = JSON.parse(readFileSync(path.join(root, 'schema', 'dbprobe.schema.json'), 'utf8')) as {
    properties: { targets: { items: { properties: { driver: { enum: string[] } } } } };
  };
  assert.deepEqual(schema.properties.targets.items.properties.driver.enum, [...DRIVER_IDS]);
});
