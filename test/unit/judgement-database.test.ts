/**
 * The verdict's why names the database's own time (src/shared/judgement/databaseGap.ts, why.ts):
 * only when both sides gave it and its difference is supported by the figures, first when it is
 * most of the gap.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeRun, type Question } from '../../src/shared/judgement/judgeRun';
import { formatMarkdown } from '../../src/report/markdown';
import type { RunResult } from '../../src/shared/result';
import type { ServerTime } from '../../src/shared/serverTime';
import { around, projectedRun, type Side } from '../helpers/projectionResult';

/** A target of `initialUs` / `subsequentUs` latency with 4 + 1 turns per connect, `warmTurns` per query. */
function target(name: string, initialUs: number, subsequentUs: number, warmTurns = 1): Side {
  return {
    name,
    tcpUs: 100,
    initial: { samplesUs: around(initialUs, initialUs / 20), wire: { roundTrips: 4, tcpHandshakes: 1 } },
    subsequent: {
      samplesUs: around(subsequentUs, subsequentUs / 20),
      wire: { roundTrips: warmTurns, tcpHandshakes: 0 },
    },
  };
}

/** Per-sample database times on every kind of `name`: its samples carry them, in latency order. */
function perSample(run: RunResult, name: string, serverUs: (i: number) => number): void {
  for (const m of run.measurements.filter((x) => x.target === name)) {
    m.samples.values = m.samples.values.map((s, i) =>
      s.us === undefined ? s : { ...s, serverUs: serverUs(i) },
    );
    const sorted = m.samples.values
      .flatMap((s) => (s.serverUs === undefined ? [] : [s.serverUs]))
      .sort((a, b) => a - b);
    m.serverTime = {
      p50Us: sorted[Math.ceil(sorted.length / 2) - 1]!,
      source: 'hrana',
      samples: sorted.length,
      figure: 'p50',
    };
  }
}

function perRun(run: RunResult, name: string, serverTime: ServerTime): void {
  for (const m of run.measurements.filter((x) => x.target === name)) m.serverTime = serverTime;
}

const whyOf = (run: RunResult, question: Question) =>
  judgeRun(run).rankings.find((r) => r.question === question && r.at === 'here')!.why;

/** 41 evenly spread samples around `us`, ±`width`, the i-th one. */
const spread = (us: number, width: number) => (i: number) => around(us, width)[i]!;

test('the database is most of the gap: the why says so first, with its share of the gap', () => {
  // slow: 42 ms warm, 38 of them in the database; fast: 3.2 ms, 0.1 in the database.
  const run = projectedRun([target('fast', 6_000, 3_200), target('slow', 45_000, 42_000)]);
  perSample(run, 'fast', spread(100, 10));
  perSample(run, 'slow', spread(38_000, 1_000));
  assert.deepEqual(whyOf(run, 'warm query'), [
    'slow: the query itself takes 38.0 ms in the database, fast 0.10 ms: 37.9 of the 38.8 ms gap; fast and slow: 1 round trip each per query, so the gap is local work, the same at every RTT',
  ]);
  assert.match(
    whyOf(run, 'new connection')[0]!,
    /^slow: the first query takes 38\.0 ms in the database, fast 0\.10 ms: 37\.9 of the 39\.0 ms gap; /,
  );
  assert.match(
    whyOf(run, 'request')[0]!,
    /^slow: the request's 5 queries take 190 ms in the database, fast 0\.50 ms: 190 of the 194 ms gap; /,
  );
  // Every surface states the judgement's why: the Markdown's verdict among them.
  assert.ok(
    formatMarkdown(run).includes('slow: the query itself takes 38.0 ms in the database, fast 0.10 ms'),
  );
});

test('round trips make the gap and the database times are alike: the database is not named', () => {
  // slow pays 4 round trips per query through a 100 µs floor... and 3 ms more of local work; the
  // database took 1 ms on both, per sample.
  const run = projectedRun([target('fast', 6_000, 2_000), target('slow', 6_000, 5_300, 4)]);
  perSample(run, 'fast', spread(1_000, 50));
  perSample(run, 'slow', spread(1_000, 50));
  assert.deepEqual(whyOf(run, 'warm query'), ['fast: 1 round trip per query, slow 4: ahead at every RTT']);
});

test('a side without its database time: nothing is said about the database', () => {
  const run = projectedRun([target('fast', 6_000, 3_200), target('slow', 45_000, 42_000)]);
  perSample(run, 'slow', spread(38_000, 1_000));
  perRun(run, 'fast', { note: 'not given by this server' });
  const why = whyOf(run, 'warm query');
  assert.deepEqual(why, [
    'fast and slow: 1 round trip each per query, so the gap is local work, the same at every RTT',
  ]);
  // Nor with no serverTime at all on that side.
  for (const m of run.measurements.filter((x) => x.target === 'fast')) delete m.serverTime;
  assert.deepEqual(whyOf(run, 'warm query'), why);
});

test('per-sample database times that overlap are not a difference, however far apart their p50s', () => {
  // Both sides' server answered in 1 or 9 ms, about half and half: the p50s (1.0 and 9.0 ms) fall
  // in different modes, but a resample flips either, so the server's own figures cannot order them,
  // though the difference is far past the width of the latency gap's interval.
  const run = projectedRun([target('fast', 6_000, 3_200), target('slow', 45_000, 42_000)]);
  perSample(run, 'fast', (i) => (i % 2 === 0 ? 1_000 : 9_000) + i);
  perSample(run, 'slow', (i) => (i % 2 === 0 ? 9_000 : 1_000) + i);
  const why = whyOf(run, 'warm query');
  assert.equal(why.length, 1);
  assert.doesNotMatch(why[0]!, /database/);
  // The same p50s as per-run figures are held to the gap's interval alone: named.
  perRun(run, 'fast', { p50Us: 1_040, source: 'pg_stat_statements', samples: 41, figure: 'mean' });
  perRun(run, 'slow', { p50Us: 9_000, source: 'pg_stat_statements', samples: 41, figure: 'mean' });
  assert.match(
    whyOf(run, 'warm query')[0]!,
    /database time: slow 9\.0 ms, fast 1\.0 ms: 8\.0 of the 38\.8 ms gap$/,
  );
});

test('a per-run figure is named only past the width of the gap interval', () => {
  // EXPLAIN ANALYZE, one execution each: 38 ms against 0.1 ms, far past the gap's interval.
  const run = projectedRun([target('fast', 6_000, 3_200), target('slow', 45_000, 42_000)]);
  perRun(run, 'fast', { p50Us: 100, source: 'explain-analyze', samples: 1, figure: 'once' });
  perRun(run, 'slow', { p50Us: 38_000, source: 'explain-analyze', samples: 1, figure: 'once' });
  assert.match(
    whyOf(run, 'warm query')[0]!,
    /^slow: the query itself takes 38\.0 ms in the database, fast 0\.10 ms/,
  );
  // 1.5 ms more in the database against a gap whose interval is wider than that: not named.
  perRun(run, 'slow', { p50Us: 1_600, source: 'explain-analyze', samples: 1, figure: 'once' });
  assert.doesNotMatch(whyOf(run, 'warm query')[0]!, /database/);
});

test('a supported database difference smaller than half the gap is named after the round trips', () => {
  // slow: 4 round trips and 12 ms more per query, of which the database 5 ms (per sample, tight).
  const run = projectedRun([target('fast', 6_000, 2_000), target('slow', 6_000, 14_000, 4)]);
  perSample(run, 'fast', spread(100, 10));
  perSample(run, 'slow', spread(5_100, 50));
  assert.deepEqual(whyOf(run, 'warm query'), [
    'fast: 1 round trip per query, slow 4: ahead at every RTT; database time: slow 5.1 ms, fast 0.10 ms: 5.0 of the 12.0 ms gap',
  ]);
});

test('the faster side spending longer in the database is no reason for the gap: not named', () => {
  const run = projectedRun([target('fast', 6_000, 3_200), target('slow', 45_000, 42_000)]);
  perSample(run, 'fast', spread(2_000, 10));
  perSample(run, 'slow', spread(100, 10));
  assert.doesNotMatch(whyOf(run, 'warm query')[0]!, /database/);
});
