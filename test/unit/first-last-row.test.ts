/**
 * Time to the first row and to the last: a target whose first answer holds many rows takes its
 * driver's streamed path from then on, and each sample records its first row; a one-row answer keeps
 * the ordinary path and one figure; a driver that does not stream records nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Driver } from '../../src/core/driver';
import { runPlan } from '../../src/core/engine';
import { runResultProblem } from '../../src/core/validate/validateRunResult';
import { ONE_ROW } from '../../src/shared/answerRows';
import { rowsSection } from '../../src/report/rowsTable';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { ms } from '../../src/shared/units';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';
import { assertMatchesSchema } from '../helpers/schema';

const FIRST_US = 400;
const REST_US = 2_600;

interface Calls {
  ordinary: number;
  streamed: number;
}

/** A fake whose answers hold `rows` rows: the first after FIRST_US, the rest REST_US later. */
function rowsDriver(clock: FakeClock, rows: number, calls: Calls, streams = true): Driver {
  const base = fakeDriver('a', clock, { connectUs: [900] }, new FakeDriverStats());
  return {
    ...base,
    ...(streams ? { firstArrival: 'row' as const } : {}),
    async connect(options) {
      const conn = await base.connect(options);
      return {
        ...conn,
        query: async () => {
          calls.ordinary++;
          clock.advanceUs(FIRST_US + REST_US);
          return { rows };
        },
        ...(streams
          ? {
              rows: {
                count: (answer: unknown) => (answer as { rows: number }).rows,
                query: async (_workload: string, watch: { firstRow(): void }) => {
                  calls.streamed++;
                  clock.advanceUs(FIRST_US);
                  watch.firstRow();
                  // A later call (a second result set, say) changes nothing.
                  clock.advanceUs(REST_US / 2);
                  watch.firstRow();
                  clock.advanceUs(REST_US / 2);
                  return { rows };
                },
              },
            }
          : {}),
      };
    },
  };
}

async function run(rows: number, options: { streams?: boolean; warmup?: number } = {}) {
  const clock = new FakeClock();
  const calls: Calls = { ordinary: 0, streamed: 0 };
  const driver = rowsDriver(clock, rows, calls, options.streams);
  const result = await runPlan(
    plan([target('a')], {
      kinds: ['subsequent'],
      iterations: 5,
      warmup: options.warmup ?? 1,
      warmConnections: 2,
    }),
    {
      registry: fakeRegistry([driver]),
      resolveConnection: async () => 'fake://user:pw@host/db',
      tool: TOOL,
      clock,
      watchClient: false,
      serverTimeRuns: false,
    },
  );
  assertMatchesSchema('result', JSON.parse(JSON.stringify(result)));
  assert.equal(runResultProblem(JSON.parse(JSON.stringify(result))), undefined);
  const m = result.measurements.find((x) => x.kind === 'subsequent');
  assert.ok(m);
  return { result, m, calls };
}

test('many rows: the first answer chooses the streamed path; each sample keeps its first row', async () => {
  const { m, calls } = await run(10_000);
  // The warm-up's answer counted the rows on the ordinary path; every measured sample streamed.
  assert.deepEqual(calls, { ordinary: 1, streamed: 5 });
  assert.deepEqual(m.rows, {
    count: 10_000,
    first: 'row',
    firstRowP50Us: FIRST_US,
    lastRowP50Us: FIRST_US + REST_US,
    samples: 5,
  });
  for (const s of m.samples.values) {
    assert.equal(s.firstRowUs, FIRST_US);
    assert.equal(s.us, FIRST_US + REST_US, 'the sample ends with its last row, as before');
  }
});

test('with no warm-up, the first measured answer counts the rows and the rest stream', async () => {
  const { m, calls } = await run(250, { warmup: 0 });
  assert.deepEqual(calls, { ordinary: 1, streamed: 4 });
  assert.equal(m.rows?.samples, 4);
  assert.equal(m.samples.values[0]?.rows, 250, 'the sample that counted them says so');
  assert.equal(m.samples.values[0]?.firstRowUs, undefined);
});

test('one row: the ordinary path throughout and one figure, no first/last pair', async () => {
  const { result, m, calls } = await run(1);
  assert.deepEqual(calls, { ordinary: 6, streamed: 0 });
  assert.deepEqual(m.rows, { count: 1, note: ONE_ROW });
  assert.ok(m.samples.values.every((s) => s.firstRowUs === undefined));
  const text = rowsSection(result).join('\n');
  assert.match(text, new RegExp(`\\| a \\| subsequent \\| 1 row \\| ${ms(m.stats.p50Us)} ms \\|`));
  const line = text.split('\n').find((l) => l.startsWith('| a |'));
  assert.doesNotMatch(line ?? '', /first|last/, 'one figure, no pair');
});

test('the Markdown names both figures with their unit and kind for a streamed answer', async () => {
  const { result } = await run(10_000);
  const text = rowsSection(result).join('\n');
  assert.match(
    text,
    new RegExp(
      `\\| a \\| subsequent \\| 10000 rows \\| first row ${ms(FIRST_US)} ms, last row ${ms(FIRST_US + REST_US)} ms \\|`,
    ),
  );
});

test('no rows (a write): nothing recorded, the ordinary path throughout', async () => {
  const { result, m, calls } = await run(0);
  assert.deepEqual(calls, { ordinary: 6, streamed: 0 });
  assert.equal(m.rows, undefined);
  assert.deepEqual(rowsSection(result), []);
});

test('a driver that does not stream rows: no rows figure, the ordinary path alone', async () => {
  const { result, m, calls } = await run(10_000, { streams: false });
  assert.deepEqual(calls, { ordinary: 6, streamed: 0 });
  assert.equal(m.rows, undefined);
  assert.deepEqual(rowsSection(result), []);
});

test("the panel's lines are the Markdown's: a pair for many rows, one figure for one row", async () => {
  const many = (await run(10_000)).result;
  assert.deepEqual(buildRunViewModel(many).rows, [
    {
      target: 'a',
      kind: 'subsequent',
      count: 10_000,
      pair: { first: 'row', firstUs: FIRST_US, lastUs: FIRST_US + REST_US, samples: 5 },
    },
  ]);
  const one = await run(1);
  assert.deepEqual(buildRunViewModel(one.result).rows, [
    { target: 'a', kind: 'subsequent', count: 1, one: { us: one.m.stats.p50Us, why: ONE_ROW } },
  ]);
  assert.equal(buildRunViewModel((await run(10_000, { streams: false })).result).rows, undefined);
});

test('a raw target an ORM layer rides keeps the ordinary path, as its twin does', async () => {
  const clock = new FakeClock();
  const calls: Calls = { ordinary: 0, streamed: 0 };
  const raw = rowsDriver(clock, 10_000, calls);
  const layer: Driver = {
    ...raw,
    over: async (conn) => ({
      query: (workload) => conn.query(workload),
      close: async () => undefined,
      destroy: () => conn.destroy(),
    }),
  };
  const registry = { ...fakeRegistry([raw]), loadLayer: async () => layer, layerVersion: () => undefined };
  const result = await runPlan(
    plan([{ ...target('a'), orm: 'drizzle' }], { kinds: ['subsequent'], iterations: 5, warmup: 1 }),
    {
      registry,
      resolveConnection: async () => 'fake://user:pw@host/db',
      tool: TOOL,
      clock,
      watchClient: false,
    },
  );
  assert.equal(result.measurements.length, 2, result.measurements.map((m) => m.target).join(', '));
  assert.equal(calls.streamed, 0, 'the layer cost is a paired difference: both sides on one path');
  for (const m of result.measurements) assert.equal(m.rows, undefined, m.target);
});
