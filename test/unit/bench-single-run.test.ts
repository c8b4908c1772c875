/**
 * The benches measured once (bench:memory, bench:soak) save their printed `name=value` figures as
 * result files like the round-based ones, and the docs render them without an interval they do not
 * have.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { BenchResult } from '../../scripts/bench/result';
import { parseFigureLines, writeSingleRun } from '../../scripts/bench/singleRun';
import { renderFigures } from '../../scripts/docs/render';

test('name=value lines become figures; a second run keeps the first as previous', () => {
  const printed = 'machine=2x cpu, node v20\nrss_peak_mb=31.5\nsoak_leaked_connections=0\n# note\nx=abc\n';
  assert.deepEqual(parseFigureLines(printed), [
    { name: 'rss_peak_mb', value: 31.5 },
    { name: 'soak_leaked_connections', value: 0 },
  ]);
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'dbprobe-single-run-'));
  const write = (value: number) =>
    writeSingleRun({
      bench: 'soak',
      command: 'npm run bench:soak',
      startedAtMs: Date.now() - 1_000,
      loadAverageStart: [0.5, 0.5, 0.5],
      figures: [{ name: 'rss_peak_mb', value }],
      outDir,
    });
  write(30);
  const file = write(31.5);
  const saved = JSON.parse(readFileSync(file, 'utf8')) as BenchResult;
  const previous = JSON.parse(readFileSync(path.join(outDir, 'soak.previous.json'), 'utf8')) as BenchResult;
  assert.equal(saved.rounds, 1);
  assert.equal(saved.machine.node, process.version);
  assert.equal(saved.machine.loadAverageStart.length, 3);
  assert.ok(!Number.isNaN(Date.parse(saved.date)));
  assert.deepEqual(saved.figures[0], {
    name: 'rss_peak_mb',
    unit: 'MB',
    about: '',
    value: 31.5,
    low: 31.5,
    high: 31.5,
    settled: false,
    single: true,
  });
  const block = renderFigures([{ ...saved, previous }]);
  assert.match(block, /one run of \d+(\.\d)? s \(measured once: no interval\)/);
  assert.match(block, /\| `rss_peak_mb` \| 31\.5 MB \| - \(one run\) \| one run, no interval \| 30\.0 \|/);
  assert.doesNotMatch(block, /\[31\.5/, 'no interval is made up');
});
