/** The Markdown's "From where your app runs": its cells are projectRun's figures, marks and sentences. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { FORMATTERS } from '../../src/report/formatters';
import { INITIAL_CWND_BYTES, projectRun } from '../../src/shared/projection';
import { ms } from '../../src/shared/units';
import { around, flat, PG, projectedRun, type Side } from '../helpers/projectionResult';

const HTTP: Side = {
  name: 'http',
  tcpUs: 100,
  initial: { samplesUs: around(3_000, 50), wire: { roundTrips: 1, tcpHandshakes: 1 } },
  subsequent: { samplesUs: around(1_500, 50), wire: { roundTrips: 1, tcpHandshakes: 0 } },
};
const PG_SPREAD: Side = {
  ...PG,
  initial: { samplesUs: around(1_000, 50), wire: { roundTrips: 4, tcpHandshakes: 1 } },
  subsequent: { samplesUs: around(300, 10), wire: { roundTrips: 1, tcpHandshakes: 0 } },
};

function sectionRows(md: string): string[][] {
  const start = md.indexOf('## From where your app runs');
  assert.ok(start >= 0, 'the section is there');
  return md
    .slice(start)
    .split('\n')
    .filter((line) => /^\| (pg|http) \|/.test(line))
    .map((line) =>
      line
        .slice(2, -2)
        .split(' | ')
        .map((c) => c.trim()),
    );
}

test('every cell is the projection at that RTT, for initial, subsequent and 2..5-query requests', () => {
  const result = projectedRun([PG_SPREAD, HTTP]);
  const md = FORMATTERS.markdown(result, { rttsMs: [5, 20, 80] });
  assert.match(md, /\| Target \| Request \| Turns \| Here \| Floor \| 5 ms \| 20 ms \| 80 ms \|/);
  const set = projectRun(result, { rttsMs: [5, 20, 80] });
  const rows = sectionRows(md);
  assert.equal(rows.length, 2 * 6, 'per target: initial, subsequent, 2..5 queries');
  for (const t of set.targets) {
    const own = rows.filter((r) => r[0] === t.target);
    assert.deepEqual(own[0]!.slice(2), [
      String(t.initial!.turns),
      ms(t.initial!.p50Us),
      ms(t.floor.us),
      ...t.initialAtUs!.map(ms),
    ]);
    assert.deepEqual(own[1]!.slice(5), t.subsequentAtUs!.map(ms));
    for (let k = 2; k <= 5; k++) {
      assert.equal(own[k]![1], `new connection + ${k} queries`);
      assert.equal(own[k]![2], String(t.initial!.turns + (k - 1) * t.subsequent!.turns));
      assert.deepEqual(own[k]!.slice(5), t.requestsAtUs![k - 1]!.map(ms));
    }
  }
  // pg: 2 fewer local ms, 3 more turns: http overtakes it on new connections, named with its interval.
  assert.match(md, /- http overtakes pg \(initial\) from 0\.767 ms RTT \(95% CI [\d.]+ to [\d.]+ ms\)/);
  assert.match(md, /Floor per target: pg: TCP connect p50 of its new connections; http: /);
});

test('defaults are 1, 10, 30, 80, 150 ms; a lower bound is marked ≥ and explained', () => {
  const big: Side = {
    ...PG,
    subsequent: { samplesUs: flat(300), wire: { roundTrips: 1, bytesReceived: INITIAL_CWND_BYTES * 2 } },
  };
  const md = FORMATTERS.markdown(projectedRun([big]));
  assert.match(md, /\| 1 ms \| 10 ms \| 30 ms \| 80 ms \| 150 ms \|/);
  const rows = sectionRows(md);
  assert.ok(
    rows[0]!.slice(5).every((c) => !c.startsWith('≥')),
    'initial received little',
  );
  assert.ok(
    rows[1]!.slice(5).every((c) => c.startsWith('≥ ')),
    rows[1]!.join(' '),
  );
  assert.ok(
    rows[2]!.slice(5).every((c) => c.startsWith('≥ ')),
    'a request holding it is a lower bound too',
  );
  assert.match(md, /≥: a lower bound\. That kind received more than a TCP initial congestion window/);
});

test('a result without counted round trips has no section (stored runs from before round trips were counted)', () => {
  const old = projectedRun([
    { ...PG, initial: { samplesUs: flat(2_000) }, subsequent: { samplesUs: flat(300) } },
  ]);
  assert.doesNotMatch(FORMATTERS.markdown(old), /From where your app runs/);
});

test('the panel model: one line per target and kind, its points the projection at each RTT', () => {
  const result = projectedRun([PG_SPREAD, HTTP]);
  const view = buildRunViewModel(result, { rttsMs: [1, 40] }).projection;
  const set = projectRun(result, { rttsMs: [1, 40] });
  assert.ok(view);
  assert.deepEqual(view.rttsMs, [1, 40]);
  assert.deepEqual(
    view.lines.map((l) => [l.target, l.kind, l.pointsUs]),
    set.targets.flatMap((t) => [
      [t.target, 'initial', t.initialAtUs],
      [t.target, 'subsequent', t.subsequentAtUs],
    ]),
  );
  assert.equal(view.overtakes.length, 1);
  assert.match(view.overtakes[0]!, /^http overtakes pg \(initial\)/);
  assert.equal(
    buildRunViewModel(
      projectedRun([{ ...PG, initial: { samplesUs: flat(9) }, subsequent: { samplesUs: flat(3) } }]),
    ).projection,
    undefined,
  );
});
