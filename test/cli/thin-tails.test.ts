/**
 * A percentile says how much stands behind it. A 50-sample run (embedded libSQL file, no
 * server) shows no bare p99 or p99.9 in Markdown, CSV or the panel's view model (a dash with "n too
 * small"), the JSON flags them, and a threshold on its p99 is refused before anything is probed:
 * 50 iterations can never give the 100 samples a p99 needs, so the run could only end in "n too small".
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import type { RunResult } from '../../src/shared/result';
import { configDir, runCli } from '../helpers/cli';

const TARGET = 'thin file';

function localDb(): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = configDir({
    targets: [{ name: TARGET, driver: 'libsql', connection: 'env:THIN_DB_URL' }],
    iterations: 50,
    warmup: 2,
  });
  return { cwd, env: { THIN_DB_URL: `file:${path.join(cwd, 'thin.db')}` } };
}

test('50 samples: no bare p99 or p99.9 in Markdown, CSV, JSON or the panel', async () => {
  const { cwd, env } = localDb();
  const [markdown, csv, json] = await Promise.all(
    ['markdown', 'csv', 'json'].map((format) => runCli(['run', '-q', '--format', format], { cwd, env })),
  );
  for (const run of [markdown, csv, json]) assert.equal(run?.code, 0, run?.stderr);

  // Markdown: in every table with a p99 or p99.9 column, the target's cells there are the footnoted dash.
  const md = markdown!.stdout;
  const lines = md.split('\n');
  let tailCells = 0;
  let header: string[] = [];
  for (const line of lines) {
    if (!line.startsWith('|')) {
      header = [];
      continue;
    }
    const cells = line.split('|').map((c) => c.trim());
    if (header.length === 0) {
      header = cells;
      continue;
    }
    if (cells[1] !== TARGET || cells.length !== header.length) continue;
    header.forEach((name, i) => {
      if (!/^p99(\.9)?$/.test(name)) return;
      tailCells++;
      assert.equal(cells[i], '-\u2020', `bare ${name} in: ${line}`);
    });
  }
  assert.ok(tailCells >= 2, `no p99 column for ${TARGET}:\n${md}`);
  assert.match(md, /\u2020 n too small: a p99 needs at least 100 successful samples/);

  // CSV: one row per sample, and no percentile column or figure at all to show bare.
  assert.doesNotMatch(csv!.stdout, /p99/);
  assert.ok(csv!.stdout.split('\n').filter((r) => r.includes(`,${TARGET},`)).length >= 100);

  // JSON flags them; the panel's view model built from that result omits them.
  const result = JSON.parse(json!.stdout) as RunResult;
  const thin = result.measurements.filter((m) => m.kind === 'initial' || m.kind === 'subsequent');
  assert.equal(thin.length, 2);
  for (const m of thin) {
    assert.equal(m.stats.count, 50);
    assert.deepEqual(m.stats.nTooSmall, ['p99Us', 'p999Us']);
  }
  const model = buildRunViewModel(result);
  for (const s of model.stats) {
    assert.equal(s.stats.p99Us, undefined, `${s.kind}: p99 shown`);
    assert.equal(s.stats.p999Us, undefined, `${s.kind}: p99.9 shown`);
  }
  for (const k of model.cards[0]?.kinds ?? []) assert.equal(k.p99Us, undefined, `${k.kind} card p99`);
});

test('a p99 threshold on a 50-iteration run is refused before probing, with the reason (exit 2)', async () => {
  const { cwd, env } = localDb();
  const run = await runCli(['run', '-q', '--threshold', `${TARGET}:subsequent:p99<5ms`], { cwd, env });
  assert.equal(run.code, 2, run.stderr);
  assert.match(
    run.stderr,
    /--threshold "thin file:subsequent:p99<5ms" cannot be judged: n too small: a p99 needs at least 100 successful samples, subsequent will take at most 50 \(--iterations 50\)/,
  );
  assert.equal(run.stdout, '', 'nothing probed, no report');
  // The same threshold with enough iterations is judged (here it passes or fails on a figure, not refused).
  const enough = await runCli(
    ['run', '-q', '--iterations', '100', '--threshold', `${TARGET}:subsequent:p99<60s`],
    { cwd, env },
  );
  assert.equal(enough.code, 0, enough.stderr);
  assert.match(enough.stderr, /all 1 checks passed/);
});
