/**
 * The connect anatomy and the network floor in every view: the shared computation, the panel's view
 * model and chart, and the Markdown report, from synthetic results that carry every anatomy field
 * (dns, tcp, tls, handshake, unmeasured steps with reasons, TLS handshakes), from results that carry
 * only some, and from results without any.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { formatMarkdown } from '../../src/report/markdown';
import { connectAnatomy, networkFloor, targetFloors } from '../../src/shared/connectPhases';
import type { LatencyStats, Measurement, RunResult } from '../../src/shared/result';
import { coldChart, phasesChart, type ChartLook } from '../../webview/phasesChart';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry, flatStats } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const stats = (p50Us: number, count = 10): LatencyStats => flatStats(p50Us, count);

/** A TLS target over a named host: every step measured. Total 9.6 ms; floor (TCP) 1.2 ms. */
const FULL_PHASES: NonNullable<Measurement['phases']> = {
  connect: stats(7_100),
  firstQuery: stats(2_500),
  dns: stats(400),
  tcp: stats(1_200),
  tls: stats(2_300),
  handshake: stats(3_200),
  tlsHandshakes: { full: 10, resumed: 0 },
};

/** A TLS target whose driver hides its TLS socket: TCP and TLS unmeasured, with why. */
const HIDDEN_PHASES: NonNullable<Measurement['phases']> = {
  connect: stats(5_000),
  firstQuery: stats(1_000),
  handshake: stats(5_000),
  unmeasured: {
    tcp: 'the client opens its socket with tls.connect, which Node does not publish',
    tls: 'the client opens its socket with tls.connect, which Node does not publish',
  },
};

/** A real result from the engine (fake drivers, fake clock), then given synthetic phases. */
async function syntheticRun(): Promise<RunResult> {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver('tlsdb', clock, { connectUs: [7_100], queryUs: [2_500] }, new FakeDriverStats()),
    fakeDriver('hidden', clock, { connectUs: [5_000], queryUs: [1_000] }, new FakeDriverStats()),
  ]);
  const result = await runPlan(
    plan([target('tlsdb'), target('hidden')], { kinds: ['initial', 'subsequent'], iterations: 10 }),
    {
      registry,
      resolveConnection: async () => 'fake://u:p@h/db',
      tool: TOOL,
      clock,
      watchClient: false,
    },
  );
  for (const m of result.measurements) {
    if (m.kind !== 'initial') continue;
    m.phases = m.target === 'tlsdb' ? FULL_PHASES : HIDDEN_PHASES;
  }
  return result;
}

const byTarget = (result: RunResult, target: string, kind = 'initial') =>
  result.measurements.find((m) => m.target === target && m.kind === kind)!;

test('anatomy: every step in order, measured ones with their p50, unmeasured ones with why, none as zero', async () => {
  const result = await syntheticRun();
  const full = connectAnatomy(byTarget(result, 'tlsdb'))!;
  assert.deepEqual(
    full.steps.map((s) => [s.step, s.p50Us]),
    [
      ['dns', 400],
      ['tcp', 1_200],
      ['tls', 2_300],
      ['handshake', 3_200],
      ['firstQuery', 2_500],
    ],
  );
  assert.equal(full.floorUs, 1_200, 'the floor is the TCP p50');
  assert.equal(full.totalP50Us, 9_600);
  assert.deepEqual(full.tlsHandshakes, { full: 10, resumed: 0 });

  const hidden = connectAnatomy(byTarget(result, 'hidden'))!;
  assert.equal(hidden.floorUs, undefined, 'no TCP seen: no floor, never a guess');
  const tls = hidden.steps.find((s) => s.step === 'tls')!;
  assert.equal(tls.p50Us, undefined);
  assert.match(tls.unmeasured ?? '', /tls\.connect/);
  const dns = hidden.steps.find((s) => s.step === 'dns')!;
  assert.deepEqual(dns, { step: 'dns' }, 'a step that did not happen is neither measured nor unmeasured');
  assert.equal(
    connectAnatomy(byTarget(result, 'tlsdb', 'subsequent')),
    undefined,
    'subsequent has no connect',
  );
});

test('floor: the initial TCP p50; every per-sample kind over it (p50 minus the floor)', async () => {
  const result = await syntheticRun();
  assert.equal(networkFloor(result.measurements, 'tlsdb'), 1_200);
  assert.equal(networkFloor(result.measurements, 'hidden'), undefined);
  const floors = targetFloors(result.measurements);
  assert.equal(floors.length, 1, 'only targets with a floor');
  const subsequent = byTarget(result, 'tlsdb', 'subsequent').stats.p50Us;
  assert.deepEqual(floors[0], {
    target: 'tlsdb',
    floorUs: 1_200,
    kinds: [
      { kind: 'initial', p50Us: 9_600, overUs: 8_400 },
      { kind: 'subsequent', p50Us: subsequent, overUs: subsequent - 1_200 },
    ],
  });
  // A warm query faster than one TCP round trip reads as negative: shown, not clamped.
  const fast = structuredClone(result.measurements);
  fast.find((m) => m.target === 'tlsdb' && m.kind === 'subsequent')!.stats.p50Us = 1_000;
  assert.equal(targetFloors(fast)[0]?.kinds[1]?.overUs, -200);
});

test('markdown: a phases table with TLS, the floor, over the floor, and unmeasured steps as footnotes', async () => {
  const md = formatMarkdown(await syntheticRun());
  assert.match(md, /## Where a new connection spends its time \(initial\)/);
  assert.match(
    md,
    /\| Target \| DNS \| TCP \(floor\) \| TLS \| handshake \| first query \| connect \| total \| over the floor \| TLS handshakes \|/,
  );
  assert.match(
    md,
    /\| tlsdb \| 0\.400 \| 1\.200 \| 2\.300 \| 3\.200 \| 2\.500 \| 7\.100 \| 9\.600 \| \+8\.400 \| 10 full \|/,
  );
  assert.match(
    md,
    /\| hidden \| - \| not measured\[\^phase-1\] \| not measured\[\^phase-2\] \| 5\.000 \| 1\.000 \| 5\.000 \| 6\.000 \| - \| - \|/,
  );
  assert.match(md, /\[\^phase-1\]: hidden: TCP not measured: the client opens its socket with tls\.connect/);
  assert.match(md, /\[\^phase-2\]: hidden: TLS not measured: /);
  assert.match(md, /### Over the network floor/);
  assert.match(md, /\| tlsdb \| 1\.200 \| 9\.600 \| \+8\.400 \| \d+\.\d{3} \| [+-]?\d+\.\d{3} \|/);
});

test('markdown: results from before the anatomy (no tls, no reasons) and without any split still format', async () => {
  const result = await syntheticRun();
  for (const m of result.measurements) {
    // A result from before wire accounting has no wire figures either.
    delete m.wire;
    if (m.kind === 'initial')
      m.phases = {
        connect: stats(7_100),
        firstQuery: stats(2_500),
        tcp: stats(300),
        handshake: stats(6_800),
      };
  }
  const md = formatMarkdown(result);
  assert.match(md, /\| tlsdb \| - \| 0\.300 \| - \| 6\.800 \| 2\.500 \| 7\.100 \| 9\.600 \| \+9\.300 \|$/m);
  assert.doesNotMatch(md, /TLS handshakes/, 'no handshake column when no result counted them');
  assert.doesNotMatch(md, /\[\^phase-/, 'no footnotes without reasons');
  for (const m of result.measurements) delete m.phases;
  const bare = formatMarkdown(result);
  assert.doesNotMatch(bare, /Where a new connection spends its time|network floor/);
});

test('markdown: the cold-start table has n, p50, p99, stddev, min and max, like the Neon benchmark', async () => {
  const result = await syntheticRun();
  const initial = byTarget(result, 'tlsdb');
  result.measurements.push({
    ...structuredClone(initial),
    kind: 'cold',
    cold: {
      mode: 'neon-api',
      hot: stats(9_000),
      hotConnect: stats(7_000),
      coldStart: {
        count: 4,
        minUs: -1_000,
        meanUs: 300_000,
        stddevUs: 50_000,
        p50Us: 310_000,
        p99Us: 400_000,
        maxUs: 410_000,
      },
      pairs: [],
    },
  });
  const md = formatMarkdown(result);
  assert.match(md, /\| Target \| made cold by \| n \| cold start p50 \| p99 \| stddev \| min \| max \|/);
  assert.match(
    md,
    // 4 cold samples cannot support a p99 (shared/percentileSupport.ts): the footnoted dash, not the largest sample.
    /\| tlsdb \| Neon API suspend \| 4 \| 310\.000 \| -\u2020 \| 50\.000 \| -1\.000 \| 410\.000 \|/,
  );
  assert.equal(md.split('| tlsdb | 0.400 |').length - 1, 1, 'the cold samples get no second phases row');
});

test('view model: anatomy and floors for the panel, from the same computation; absent when nothing split', async () => {
  const result = await syntheticRun();
  const model = buildRunViewModel(result);
  assert.deepEqual(
    model.anatomy?.map((a) => a.target),
    ['tlsdb', 'hidden'],
  );
  assert.deepEqual(model.anatomy?.[0], connectAnatomy(byTarget(result, 'tlsdb')));
  assert.deepEqual(model.floors, targetFloors(result.measurements));
  for (const m of result.measurements) delete m.phases;
  const bare = buildRunViewModel(result);
  assert.equal('anatomy' in bare, false);
  assert.equal('floors' in bare, false);
});

const SERIES: Record<string, string> = {
  'pg-cold': 'rgb(1, 0, 0)',
  other: 'rgb(2, 0, 0)',
  tlsdb: 'rgb(3, 0, 0)',
  hidden: 'rgb(4, 0, 0)',
};
const LOOK: ChartLook = {
  foreground: 'rgb(0, 0, 0)',
  background: 'rgb(255, 255, 255)',
  highContrast: false,
  colourOf: (target) => SERIES[target] ?? 'rgb(9, 9, 9)',
  shade: (colour, percent) => `${colour} at ${percent}%`,
};

test('phases chart: one stacked bar per target, unmeasured steps not drawn (null, not 0), the floor as a marker', async () => {
  const model = buildRunViewModel(await syntheticRun());
  const config = phasesChart(model, LOOK);
  assert.deepEqual(config.data.labels, ['tlsdb', 'hidden']);
  const data = Object.fromEntries(config.data.datasets.map((d) => [d.label, d.data]));
  assert.deepEqual(data['TLS p50'], [2.3, null]);
  assert.deepEqual(data['TCP p50'], [1.2, null]);
  assert.deepEqual(data['handshake p50'], [3.2, 5]);
  assert.deepEqual(data['network floor (TCP p50)'], [1.2, null]);
  const bars = config.data.datasets.filter((d) => d.type === 'bar');
  assert.equal(bars.length, 5);
  assert.ok(
    bars.every((d) => (d as { stack?: string }).stack === 'phases'),
    'the steps stack',
  );
  // Colour names the target in every chart: each bar's steps are shades of its own target's colour.
  const tls = bars.find((d) => d.label === 'TLS p50');
  assert.deepEqual(tls?.backgroundColor, ['rgb(3, 0, 0) at 62%', 'rgb(4, 0, 0) at 62%']);
  const floor = config.data.datasets.find((d) => d.type === 'line') as { stack?: string; showLine?: boolean };
  assert.equal(floor.stack, 'floor', 'the marker is not stacked on the bars');
  assert.equal(floor.showLine, false);
});

test('cold chart: cold and hot side by side per target, connect bars only when a driver reported them', () => {
  const row = {
    target: 'pg-cold',
    mode: 'neon-api',
    count: 3,
    coldP50Us: 300_000,
    hotP50Us: 9_000,
    coldStart: { count: 3, minUs: 0, meanUs: 0, stddevUs: 0, p50Us: 291_000, p99Us: 0, maxUs: 0 },
    waitP50Ms: 500,
  };
  const model = (rows: object[]) => ({ cold: rows }) as unknown as Parameters<typeof coldChart>[0];
  const totals = coldChart(model([row]), LOOK, () => ({}));
  assert.deepEqual(totals.data.labels, ['pg-cold']);
  assert.deepEqual(
    totals.data.datasets.map((d) => [d.label, d.data]),
    [
      ['cold p50 (connect + first query)', [300]],
      ['hot p50 (connect + first query)', [9]],
    ],
  );
  const split = coldChart(
    model([row, { ...row, target: 'other', coldConnectP50Us: 250_000, hotConnectP50Us: 6_000 }]),
    LOOK,
    () => ({}),
  );
  assert.deepEqual(
    split.data.datasets.map((d) => [d.label, d.data]),
    [
      ['cold p50 (connect + first query)', [300, 300]],
      ['hot p50 (connect + first query)', [9, 9]],
      ['cold connect p50', [null, 250]],
      ['hot connect p50', [null, 6]],
    ],
  );
  assert.deepEqual(
    split.data.datasets[2]?.backgroundColor,
    ['rgb(1, 0, 0) at 40%', 'rgb(2, 0, 0) at 40%'],
    'connect bars: a lighter shade of each target’s own colour',
  );
  assert.deepEqual(split.data.datasets[0]?.backgroundColor, ['rgb(1, 0, 0)', 'rgb(2, 0, 0)']);
});
