/**
 * docs/benchmarks.md's figures are generated: the committed block is exactly what
 * `npm run docs:figures` gives from the committed bench-results/ files, so no figure there is typed
 * by hand or left behind by a newer run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { FIGURES_DOCS, readResults, regenerated } from '../../scripts/docs/figures';
import {
  BEGIN_MARKER,
  END_MARKER,
  renderFigures,
  renderProjection,
  replaceBlock,
  type E2eResult,
  type ProjectionResult,
} from '../../scripts/docs/render';
import { keptFigures } from '../../scripts/docs/save-e2e';
import { digitsOf } from '../../scripts/docs/render';
import { projectionRows } from '../../scripts/docs/save-projection';
import type { BenchResult } from '../../scripts/bench/result';

const root = path.join(__dirname, '..', '..');

for (const doc of FIGURES_DOCS) {
  test(`${doc}: its figures are what bench-results/ gives (npm run docs:figures)`, async () => {
    const committed = readFileSync(path.join(root, doc), 'utf8');
    assert.equal(committed, await regenerated(root, doc));
  });
}

test('every committed benchmark figure is in the docs with its interval and rounds', () => {
  const text = readFileSync(path.join(root, 'docs/benchmarks.md'), 'utf8');
  const benches = readResults(root).filter((r): r is BenchResult => 'bench' in r);
  assert.ok(benches.some((r) => r.bench === 'overhead') && benches.some((r) => r.bench === 'load'));
  for (const r of benches) {
    // Measured once (bench:memory, bench:soak): no interval to show, and the docs say so.
    if (r.figures.every((f) => f.single)) {
      assert.ok(
        text.includes(`one run of ${r.seconds} s (measured once: no interval)`),
        `${r.bench}: one run`,
      );
      for (const f of r.figures) {
        // Table cells are padded by prettier: name, then its value as the docs round it.
        const shown = f.value.toFixed(f.unit === 'bytes' || f.unit === 'count' ? 0 : 1);
        const row = text.split('\n').find((line) => line.startsWith(`| \`${f.name}\``)) ?? '';
        assert.ok(row.split('|')[2]?.trim().startsWith(`${shown} `), `${f.name}: its value ${shown}`);
      }
      continue;
    }
    assert.ok(text.includes(`${r.rounds} rounds`), `${r.bench}: its rounds`);
    for (const f of r.figures)
      assert.ok(
        text.includes(`[${f.low.toFixed(digitsOf(f))}, ${f.high.toFixed(digitsOf(f))}]`),
        `${f.name}: its interval`,
      );
  }
});

test('an unsettled figure says so; a doc without the markers is refused', () => {
  const result: BenchResult = {
    bench: 'x',
    command: 'npm run bench:x',
    date: '2026-01-02T00:00:00.000Z',
    seconds: 9,
    rounds: 12,
    stoppedBy: 'time cap',
    tolerance: 0.01,
    confidence: 0.95,
    machine: {
      hostname: 'h',
      cpuModel: 'cpu',
      cores: 2,
      memoryGiB: 4,
      platform: 'linux',
      node: 'v20.0.0',
      loadAverageStart: [1, 1, 1],
      loadAverage: [2, 2, 2],
    },
    figures: [
      { name: 'x_ratio', unit: 'ratio', about: 'x', value: 1.1, low: 0.9, high: 1.3, settled: false },
    ],
    context: {},
  };
  const block = renderFigures([result]);
  assert.ok(block.startsWith(BEGIN_MARKER) && block.endsWith(END_MARKER));
  assert.match(block, /\| `x_ratio` \| 1\.1000 \| \[0\.9000, 1\.3000\] \| not settled \|/);
  assert.match(block, /12 rounds in 9 s, stopped at its time cap/);
  assert.throws(() => replaceBlock('no markers', block, 'x.md'), /no figures markers/);
  // Beside the run before: whether the two intervals overlap.
  const shifted = (low: number, high: number): BenchResult => ({
    ...result,
    figures: [{ ...result.figures[0]!, value: (low + high) / 2, low, high }],
  });
  assert.match(
    renderFigures([{ ...result, previous: shifted(1.2, 1.4) }]),
    /\| 1\.3000 \[1\.2000, 1\.4000\], overlaps \|/,
  );
  assert.match(
    renderFigures([{ ...result, previous: shifted(1.31, 1.4) }]),
    /\| 1\.3550 \[1\.3100, 1\.4000\], does not overlap \|/,
  );
  assert.match(
    renderFigures([{ ...result, previous: shifted(0.5, 0.8) }]),
    /\| 0\.6500 \[0\.5000, 0\.8000\], does not overlap \|/,
  );
});

test('save-e2e --keep keeps only the test files the new outputs lack, and names the run they are from', () => {
  const previous: E2eResult = {
    kind: 'e2e',
    date: '2026-11-25T09:24:55.564Z',
    command: 'npm run test:e2e',
    machine: { cpuModel: 'x', cores: 2, memoryGiB: 1, platform: 'linux', node: 'v20' },
    figures: { 'e2e figures': { activationMs: 331 }, 'e2e responsive figures': { idleEchoMedianMs: 13 } },
  };
  const kept = keptFigures(previous, { 'e2e figures': { activationMs: 42 } });
  assert.deepEqual(kept.figures, { 'e2e responsive figures': { idleEchoMedianMs: 13 } });
  assert.equal(
    kept.note,
    '; e2e responsive figures kept from the 2026-11-25 09:24 UTC run (npm run test:e2e)',
  );
  assert.deepEqual(keptFigures(previous, previous.figures), { figures: {}, note: '' });
});

test('the projection check: its printed rows become the table, lower bounds marked, net-of-CPU figures said', () => {
  const printed = [
    'noise',
    'projection figures: {"driver":"pg","kind":"initial","turns":5,"floorUs":464,"floorSource":"subsequent","lowerBound":false,"at":[{"delayMs":5,"projectedUs":1,"measuredUs":2}]}',
    'projection figures: {"driver":"pg","kind":"initial","turns":5,"floorUs":464,"floorSource":"subsequent","lowerBound":false,"at":[{"delayMs":5,"projectedUs":33970,"measuredUs":34520},{"delayMs":20,"projectedUs":91330,"measuredUs":92230}]}',
    '  projection figures: {"driver":"libsql ws","kind":"initial","turns":3,"floorUs":1309,"floorSource":"subsequent","lowerBound":true,"at":[{"delayMs":5,"projectedUs":12900,"measuredUs":15370}]}',
    'projection figures: {"driver":"neon-ws","kind":"initial","turns":6,"floorUs":732,"floorSource":"tcp","lowerBound":false,"at":[{"delayMs":20,"projectedUs":479640,"measuredUs":431310,"net":{"projectedUs":139296,"measuredUs":133595}}]}',
  ].join('\n');
  const rows = projectionRows(printed);
  // A later line for the same driver and kind replaces the earlier one.
  assert.deepEqual(
    rows.map((r) => `${r.driver} ${r.kind} ${r.at.length}`),
    ['pg initial 2', 'libsql ws initial 1', 'neon-ws initial 1'],
  );
  const result: ProjectionResult = {
    kind: 'projection',
    date: '2026-11-27T04:00:00.000Z',
    command: 'node --import tsx --test test/integration/projection.test.ts',
    machine: { cpuModel: 'cpu', cores: 2, memoryGiB: 4, platform: 'linux', node: 'v20.0.0' },
    rows,
  };
  const block = renderProjection([result]);
  assert.ok(block.startsWith(BEGIN_MARKER) && block.endsWith(END_MARKER));
  assert.match(block, /\| 5 ms \| 20 ms \|/);
  assert.match(
    block,
    /\| pg \| initial \| 5 \| 0\.464 \(subsequent\) \| 33\.97 \/ 34\.52 \| 91\.33 \/ 92\.23 \|/,
  );
  assert.match(block, /\| libsql ws \| initial \| 3 \| 1\.309 \(subsequent\) \| 12\.90 \/ 15\.37 ≥ \| - \|/);
  assert.match(
    block,
    /neon-ws `initial` is checked net of each sample's client CPU \(as said above\): projected \/ measured 139\.30 \/ 133\.59 at 20 ms\./,
  );
  // Not in docs/benchmarks.md's block; and a doc without a recorded run says how to record one.
  assert.doesNotMatch(renderFigures([result]), /projection|neon-ws/);
  assert.match(renderProjection([]), /No run recorded yet: .*save-projection\.ts/);
});
