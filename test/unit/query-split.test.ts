/** Where a query's time goes: the parts add up to the p50, and projected only the distance grows. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { projectRun } from '../../src/shared/projection';
import { splitRun, SPLIT_PARTS } from '../../src/shared/querySplit';
import { formatMarkdown } from '../../src/report/markdown';
import { flat, projectedRun } from '../helpers/projectionResult';

/** pg_sleep-like: 20 ms in the database, 5 turns for a new connection, 1 warm; floor 100 µs. */
function sleepy() {
  const result = projectedRun([
    {
      name: 'pg',
      tcpUs: 100,
      initial: { samplesUs: flat(24_000), wire: { roundTrips: 4, tcpHandshakes: 1, clientCpuUs: 1_500 } },
      subsequent: { samplesUs: flat(20_300), wire: { roundTrips: 1, tcpHandshakes: 0 } },
    },
  ]);
  for (const m of result.measurements)
    m.serverTime = { p50Us: 20_050, source: 'explain-analyze', samples: 1, figure: 'once' };
  return result;
}

const sum = (parts: Partial<Record<string, number>>) => SPLIT_PARTS.reduce((s, p) => s + (parts[p] ?? 0), 0);

test('here: database + distance + client + rest = the p50, each part from its own figure', () => {
  const { splits } = splitRun(sleepy().measurements, ['pg']);
  const [initial, subsequent] = splits;
  assert.deepEqual(initial?.parts, { database: 20_050, distance: 500, client: 1_500, rest: 1_950 });
  assert.equal(sum(initial!.parts), 24_000);
  assert.deepEqual(subsequent?.parts, { database: 20_050, distance: 100, rest: 150 });
  assert.equal(subsequent?.why.client, 'a warm query has no CPU figure of its own');
  assert.equal(sum(subsequent!.parts), 20_300);
});

test('at an app RTT only the distance grows, and the sum is the projection at that RTT', () => {
  const result = sleepy();
  const here = splitRun(result.measurements, ['pg']).splits;
  const there = splitRun(result.measurements, ['pg'], 10_000).splits;
  const projection = projectRun(result, { rttsMs: [10] }).targets[0]!;
  for (const [i, split] of there.entries()) {
    const local = here[i]!;
    assert.equal(split.parts.distance, split.turns * 10_000);
    for (const part of ['database', 'client', 'rest'] as const)
      assert.equal(split.parts[part], local.parts[part]);
    const projected = split.kind === 'initial' ? projection.initialAtUs![0] : projection.subsequentAtUs![0];
    assert.equal(sum(split.parts), projected);
  }
});

test('a database time not given is named with its note, and its time stays in the rest', () => {
  const result = sleepy();
  for (const m of result.measurements) m.serverTime = { note: 'not given by this server' };
  const [, subsequent] = splitRun(result.measurements, ['pg']).splits;
  assert.equal(subsequent?.parts.database, undefined);
  assert.equal(subsequent?.why.database, 'not given by this server');
  assert.equal(subsequent?.parts.rest, 20_200);
  const markdown = formatMarkdown(result);
  assert.match(markdown, /## Where a query's time goes/);
  assert.match(markdown, /not given\[\^split-\d\]/);
  assert.match(markdown, /\[\^split-\d\]: pg \(subsequent\): database: not given by this server/);
});

test('the Markdown table gives each part and the projected one with an app RTT', () => {
  const markdown = formatMarkdown(sleepy(), { appRttMs: 10 });
  assert.match(
    markdown,
    /\| pg +\| subsequent \| +20\.300 \| +20\.050 \| +0\.100 \(1 x 0\.100\) \| not given\[\^split-\d\] \| +0\.150 \|/,
  );
  assert.match(markdown, /\| pg +\| subsequent \| +30\.200 \| +20\.050 \| +10\.000 \(1 x 10\.000\) \|/);
  assert.match(
    markdown,
    /pg \(initial\): EXPLAIN ANALYZE of the workload on a warm connection .*\(one execution\)/,
  );
});

test('the panel: the saved split, here and at the app RTT, one colour per part in every bar', async () => {
  const { buildRunViewModel } = await import('../../src/extension/model/runViewModel');
  const { splitChart } = await import('../../webview/splitChart');
  const result = sleepy();
  const model = buildRunViewModel(result, { appRttMs: 10 });
  assert.deepEqual(model.split?.here, splitRun(result.measurements, ['pg']).splits);
  assert.deepEqual(model.split?.atApp, splitRun(result.measurements, ['pg'], 10_000).splits);
  const colours: Record<string, string> = {
    database: 'purple',
    distance: 'blue',
    client: 'orange',
    rest: 'grey',
  };
  const chart = splitChart(model, {
    foreground: 'fg',
    background: 'bg',
    highContrast: false,
    partColour: (part) => colours[part]!,
  });
  assert.deepEqual(chart.data.labels, [
    'pg initial',
    'pg subsequent',
    'pg initial at 10 ms RTT',
    'pg subsequent at 10 ms RTT',
  ]);
  const byLabel = new Map(chart.data.datasets.map((d) => [d.label, d]));
  assert.deepEqual(byLabel.get('database')?.data, [20.05, 20.05, 20.05, 20.05]);
  assert.deepEqual(byLabel.get('distance')?.data, [0.5, 0.1, 50, 10]);
  // The warm query has no client figure: no segment, never a zero one.
  assert.deepEqual(byLabel.get('client')?.data, [1.5, null, 1.5, null]);
  for (const d of chart.data.datasets) assert.equal(d.backgroundColor, colours[d.label!]);
});

test('the CodeLens says where the time goes, at the app RTT only the distance differing', async () => {
  const { lensTitles, pickFigures, withProjection } = await import('../../src/extension/queries/lensText');
  const result = sleepy();
  const figures = withProjection(pickFigures('pg', result.measurements)!, result.measurements);
  const record = { runId: result.id, at: new Date(0).toISOString(), targets: [figures] };
  assert.deepEqual(lensTitles(record, 0), [
    'p50 20.3 ms: 20.1 ms in the database, 0.1 ms distance (1 round trip x 0.1 ms), 0.1 ms rest / p99 40.6 ms on pg, just now',
  ]);
  assert.deepEqual(lensTitles(record, 0, 10), [
    'p50 20.3 ms here · ≈ 30.2 ms from your app (10 ms RTT): 20.1 ms in the database, 10.0 ms distance (1 round trip x 10.0 ms), 0.1 ms rest / p99 40.6 ms on pg, just now',
  ]);
});
