import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildCompareViewModel } from '../../src/extension/model/compareViewModel';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { judgeChanges } from '../../src/shared/judgement/judgeChanges';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { projectAt, projectRun } from '../../src/shared/projection';
import { cardOrder, defaultRanking } from '../../webview/cardOrder';
import { around, flat, PG, projectedRun } from '../helpers/projectionResult';

const HTTP = {
  name: 'http',
  tcpUs: 100,
  initial: { samplesUs: around(1_200, 100), wire: { roundTrips: 1, tcpHandshakes: 1, bytesReceived: 500 } },
  subsequent: { samplesUs: around(500, 50), wire: { roundTrips: 1, tcpHandshakes: 0 } },
};

test('the app RTT joins the projection RTTs, is marked, and every card shows its kinds there', () => {
  const result = projectedRun([PG, HTTP]);
  const model = buildRunViewModel(result, { rttsMs: [1, 10, 30], appRttMs: 12 });
  assert.equal(model.appRttMs, 12);
  assert.deepEqual(model.projection?.rttsMs, [1, 10, 12, 30], 'the app RTT is a column of its own');
  assert.equal(model.projection?.appRttMs, 12);
  // Each card's p50 at the app RTT is the projection's own figure there (projectAt, as the Markdown).
  const set = projectRun(result, { rttsMs: [12] });
  for (const card of model.cards) {
    const target = set.targets.find((t) => t.target === card.target)!;
    for (const k of card.kinds) {
      const kind = k.kind as 'initial' | 'subsequent';
      assert.equal(k.app?.p50Us, target[`${kind}AtUs`]?.[0], `${card.target} ${kind} at 12 ms`);
      assert.equal(k.app?.turns, target[kind]?.turns);
    }
  }
  // 10 samples cannot support a p99: none at the app either.
  assert.equal(model.cards[0]?.kinds[0]?.app?.p99Us, undefined);
});

test('with enough samples the p99 at the app keeps the p50’s turns and floor', () => {
  const many = { ...PG, initial: { ...PG.initial!, samplesUs: flat(2_000, 120) } };
  const result = projectedRun([many]);
  const m = result.measurements.find((x) => x.kind === 'initial')!;
  m.stats.p99Us = 2_900;
  const card = buildRunViewModel(result, { appRttMs: 20 }).cards[0]!;
  const initial = card.kinds.find((k) => k.kind === 'initial')!;
  const turns = 5; // 4 round trips + 1 TCP handshake
  assert.equal(initial.app?.p99Us, projectAt({ localUs: 2_900 - turns * 100, turns }, 20_000));
});

test('without an app RTT the cards carry no projected figure and the view says none is set', () => {
  const model = buildRunViewModel(projectedRun([PG]), { rttsMs: [1, 10] });
  assert.equal(model.appRttMs, undefined);
  assert.deepEqual(model.projection?.rttsMs, [1, 10]);
  assert.ok(model.cards.every((c) => c.kinds.every((k) => k.app === undefined)));
});

test('Differences compare only targets that ran the same workload', () => {
  const result = projectedRun([PG, HTTP, { ...PG, name: 'redis' }]);
  const redis = result.targets.find((t) => t.name === 'redis')!;
  redis.query = 'PING';
  const model = buildRunViewModel(result);
  const pairs = model.differences.comparisons.map((c) => `${c.a}/${c.b}`);
  assert.ok(pairs.includes('pg/http'), pairs.join(' '));
  assert.ok(
    pairs.every((p) => !p.includes('redis')),
    `SELECT 1 is never set against PING: ${pairs.join(' ')}`,
  );
});

test('the panel states the one judgement, at the app RTT it shows, and sorts the cards by it', () => {
  const slow = { ...PG, name: 'slow', initial: { ...PG.initial!, samplesUs: around(9_000, 200) } };
  const result = projectedRun([slow, HTTP, PG]);
  const model = buildRunViewModel(result, { rttsMs: [1, 10], appRttMs: 12 });
  assert.deepEqual(
    model.judgement,
    judgeRun(result, { appRttMs: 12 }),
    'judgeRun’s words, order and figures',
  );
  const ranking = model.judgement.rankings[defaultRanking(model.judgement)]!;
  assert.equal(ranking.at, 'app', 'with an app RTT the cards follow the ranking there');
  const order = cardOrder(model, ranking);
  assert.deepEqual(
    order.map((o) => o.target),
    ranking.groups.flat().map((e) => e.target),
  );
  assert.equal(order[0]?.place, 'fastest');
  // The card's figure at the app RTT is the figure the ranking there ranks.
  for (const entry of ranking.groups.flat()) {
    const card = model.cards.find((c) => c.target === entry.target)!;
    assert.equal(card.kinds.find((k) => k.kind === 'initial')?.app?.p50Us, entry.p50Us);
  }
});

test('the compare view carries the one judgement of two runs, B against A', () => {
  const a = projectedRun([PG, HTTP]);
  const b = projectedRun([PG, HTTP]);
  b.id = '99999999-2222-4333-8444-555555555555';
  const model = buildCompareViewModel(a, b);
  assert.deepEqual(model.changes, judgeChanges(a, b));
  assert.ok(
    model.changes?.changes.every((c) => c.verdict !== 'regressed' && c.verdict !== 'improved'),
    'two identical runs: nothing established, so nothing coloured',
  );
});
