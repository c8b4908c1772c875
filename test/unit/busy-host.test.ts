/** What a busy host did to one run's own figures (src/shared/judgement/busyHost.ts), on hand-built samples. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { busyHost } from '../../src/shared/judgement/busyHost';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import type { RunResult } from '../../src/shared/result';
import { around, PG, projectedRun } from '../helpers/projectionResult';

/** pg and a twin; each warm sample of `busy` carries `waitUs(i)` of CPU wait inside its time. */
function withWaits(waitUs: (i: number) => number): RunResult {
  const result = projectedRun([
    { ...PG, subsequent: { samplesUs: around(300, 30, 101), wire: { roundTrips: 1, tcpHandshakes: 0 } } },
    {
      ...PG,
      name: 'twin',
      subsequent: { samplesUs: around(300, 30, 101), wire: { roundTrips: 1, tcpHandshakes: 0 } },
    },
  ]);
  for (const m of result.measurements) {
    m.samples.values = m.samples.values.map((s, i) => {
      if (s.us === undefined) return s;
      const wait = m.kind === 'subsequent' ? waitUs(i) : 0;
      return { ...s, us: s.us + wait, cpuWaitUs: wait };
    });
    const sorted = m.samples.values.flatMap((s) => (s.us === undefined ? [] : [s.us])).sort((a, b) => a - b);
    m.stats.p50Us = sorted[Math.ceil(sorted.length / 2) - 1]!;
  }
  return result;
}

test('a wait in most samples raises the warm figures beyond their interval: said, with the wait-free p50', () => {
  // Seven samples in ten waited 1 ms for a CPU: the p50 is the host's, not the database's.
  const found = busyHost(withWaits((i) => (i % 10 < 7 ? 1_000 : 0)));
  assert.ok(found, 'a busy host is said');
  assert.deepEqual(
    found.raised.map((r) => `${r.target} ${r.kind}`),
    ['pg subsequent', 'twin subsequent'],
  );
  for (const r of found.raised) {
    assert.ok(r.p50Us > 1_200, `measured p50 ${r.p50Us}`);
    assert.ok(Math.abs(r.withoutWaitUs - 300) <= 30, `without the wait ${r.withoutWaitUs}`);
    assert.ok(r.withoutWaitUs < r.lowUs);
  }
  assert.match(
    found.sentence,
    /^This machine was busy while it measured: the probe sat waiting for a CPU \(up to \d+% /,
  );
  assert.match(
    found.sentence,
    /Without that wait: pg warm query 0\.\d+ ms \(measured 1\.\d+\), twin warm query/,
  );
  // The one judgement carries it, last, after the rankings it does not change.
  const judgement = judgeRun(withWaits((i) => (i % 10 < 7 ? 1_000 : 0)));
  assert.equal(judgement.lines.at(-1), found.sentence);
  assert.ok(judgement.lines.some((l) => l.startsWith('Warm query here: pg and twin tied')));
});

test('a wait smaller than the figure’s own uncertainty is not said', () => {
  assert.equal(busyHost(withWaits(() => 3)), undefined);
  assert.equal(judgeRun(withWaits(() => 3)).busyHost, undefined);
});

test('no wait read (another platform, an old result): nothing said', () => {
  const result = withWaits(() => 0);
  for (const m of result.measurements) m.samples.values = m.samples.values.map(({ cpuWaitUs: _, ...s }) => s);
  assert.equal(busyHost(result), undefined);
});
