/** What a layer adds, in the judgement's words: layer p50 - raw p50 with its interval, by the one rule. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { statsTable } from '../../src/report/statsTable';
import { layerOverheads } from '../../src/shared/judgement/layerOverhead';
import { around, projectedRun } from '../helpers/projectionResult';

function layeredRun(rawUs: number, layerUs: number) {
  const result = projectedRun([
    { name: 'db', initial: { samplesUs: around(10_000, 500) }, subsequent: { samplesUs: around(rawUs, 50) } },
    {
      name: 'db · kysely',
      initial: { samplesUs: around(10_000, 500) },
      subsequent: { samplesUs: around(layerUs, 50) },
    },
  ]);
  result.targets[1]!.layer = { name: 'kysely', package: 'kysely', version: '0.28.19', over: 'db' };
  return result;
}

test('a cost beyond the warm-connection floor is stated as the layer adding it, with its interval', () => {
  const result = layeredRun(1_000, 3_000);
  const warm = layerOverheads(result).find((o) => o.kind === 'subsequent');
  assert.ok(warm);
  assert.equal(warm.overheadUs, 2_000);
  assert.equal(warm.established, true);
  assert.ok(warm.lowUs > 0 && warm.lowUs <= 2_000 && warm.highUs >= 2_000, JSON.stringify(warm));
  assert.match(
    warm.sentence,
    /^ORM layer kysely 0\.28\.19 adds 2\.000 ms at p50 to each warm query over db \(95% CI /,
  );
  assert.ok(judgeRun(result).lines.includes(warm.sentence), 'a verdict line, so every surface says it');
});

test('a difference within the floor is said to be within noise, with its figure', () => {
  const initial = layerOverheads(layeredRun(1_000, 1_100)).find((o) => o.kind === 'initial');
  assert.ok(initial);
  assert.equal(initial.established, false);
  assert.match(initial.sentence, /over db, on a new connection .*within noise: no cost established\.$/);
});

test('a target without a layer, or whose raw twin is missing, states nothing', () => {
  const result = layeredRun(1_000, 3_000);
  result.targets[1]!.layer = { name: 'kysely', package: 'kysely', over: 'gone' };
  assert.deepEqual(layerOverheads(result), []);
  delete result.targets[1]!.layer;
  assert.deepEqual(judgeRun(result).layers, []);
});

test('the sentence names where the copy came from and the path; the table names the layer over the driver', () => {
  const result = layeredRun(1_000, 3_000);
  result.targets[1]!.layer = {
    name: 'kysely',
    package: 'kysely',
    version: '0.28.19',
    from: 'your workspace',
    query: 'typed',
    over: 'db',
  };
  const warm = layerOverheads(result).find((o) => o.kind === 'subsequent');
  assert.match(
    warm?.sentence ?? '',
    /^ORM layer kysely 0\.28\.19 from your workspace \(typed query\) adds 2\.000 ms/,
  );
  result.targets[1]!.layer.query = 'raw';
  assert.match(
    layerOverheads(result)[0]?.sentence ?? '',
    /^ORM layer kysely 0\.28\.19 from your workspace \(raw SQL\) /,
  );

  const driverCells = (lines: string[]) =>
    lines
      .slice(2)
      .filter((line) => line.startsWith('| '))
      .map((line) => line.split(' | ').slice(0, 2).join(' | '));
  const warmRows = result.measurements.filter((m) => m.kind === 'subsequent');
  const driver = result.targets[0]!.driver;
  assert.deepEqual(driverCells(statsTable(warmRows, result.targets)), [
    `| db | ${driver}`,
    `| db · kysely | ${driver} · kysely 0.28.19`,
  ]);
  result.targets[1]!.layer.query = 'typed';
  assert.equal(
    driverCells(statsTable(warmRows, result.targets))[1],
    `| db · kysely | ${driver} · kysely 0.28.19 (typed)`,
  );
});
