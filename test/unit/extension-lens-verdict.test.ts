/**
 * The lens and the heartbeat state the shared judgement first: the lens the run's warm-query ranking
 * (judgeRun's own sentences, here and at the app's RTT), the heartbeat judgeHealth's up/down.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { heartbeatHealth } from '../../src/extension/heartbeat/heartbeatHealth';
import { describeHeartbeat } from '../../src/extension/heartbeat/heartbeatWindow';
import { lensTitles, lensVerdict, type LensRecord } from '../../src/extension/queries/lensText';
import { RunJudgements } from '../../src/extension/queries/runJudgements';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import type { RunResult } from '../../src/shared/result';
import { around, projectedRun, type Side } from '../helpers/projectionResult';

const counted = (roundTrips: number, tcpHandshakes: number) => ({ roundTrips, tcpHandshakes });
const side = (name: string, initialUs: number, subsequentUs: number): Side => ({
  name,
  tcpUs: 100,
  initial: { samplesUs: around(initialUs, initialUs / 10), wire: counted(4, 1) },
  subsequent: { samplesUs: around(subsequentUs, subsequentUs / 10), wire: counted(1, 0) },
});

describe('the lens states the judgement first', () => {
  const result = projectedRun([side('slow', 10_000, 3_000), side('fast', 2_000, 300)]);
  const at = Date.parse(result.startedAt);
  const record: LensRecord = {
    runId: result.id,
    at: result.startedAt,
    targets: [
      { target: 'slow', kind: 'subsequent', p50Us: 3_000, p99Us: 3_300, errors: 0 },
      { target: 'fast', kind: 'subsequent', p50Us: 300, p99Us: 330, errors: 0 },
      {
        target: 'local-mysql',
        kind: 'initial',
        errors: 0,
        failure: { class: 'query', message: "Table 'app.pg_class' doesn't exist" },
      },
    ],
  };

  test("the warm query's ranking, in the judgement's words; a failed target apart, with why", () => {
    const verdict = lensVerdict(judgeRun(result).rankings);
    assert.deepEqual(
      verdict.map((v) => v.sentence),
      ['Warm query here: fast fastest (0.30 ms); slow behind (3.0 ms).'],
    );
    assert.equal(verdict[0]!.why.length, 1, 'the established gap has its why (the tooltip)');
    assert.deepEqual(lensTitles(record, at, undefined, verdict), [
      'Warm query here: fast fastest (0.30 ms); slow behind (3.0 ms) · just now',
      "query rejected on local-mysql: Table 'app.pg_class' doesn't exist, just now",
    ]);
  });

  test("with the app's RTT set: the ranking there too, at the RTT as set", () => {
    const verdict = lensVerdict(judgeRun(result, { appRttMs: 12 }).rankings);
    assert.equal(verdict.length, 2);
    assert.match(verdict[1]!.sentence, /^Warm query at 12 ms RTT \(projected\): fast fastest \(12\.\d ms\)/);
  });

  test('no ranking (a target alone): its figures, as before', () => {
    const alone = projectedRun([side('pg', 2_000, 300)]);
    const verdict = lensVerdict(judgeRun(alone).rankings);
    assert.deepEqual(verdict, []);
    const one: LensRecord = { ...record, targets: [record.targets[1]!] };
    assert.deepEqual(lensTitles(one, at, undefined, verdict), ['p50 0.3 ms / p99 0.3 ms on fast, just now']);
  });

  test('runs are loaded and judged once per app RTT, then the view is told to redraw', async () => {
    const loaded: string[] = [];
    let redraws = 0;
    const judgements = new RunJudgements(
      async (id): Promise<RunResult | undefined> => {
        loaded.push(id);
        return id === result.id ? result : undefined;
      },
      async (r, options) => judgeRun(r, options),
      () => redraws++,
    );
    assert.equal(judgements.judgementOf(result.id, undefined), undefined, 'not judged yet');
    assert.equal(judgements.judgementOf(result.id, undefined), undefined, 'pending: no second load');
    await waitFor(() => redraws === 1);
    assert.deepEqual(judgements.judgementOf(result.id, undefined)?.lines, judgeRun(result).lines);
    judgements.judgementOf(result.id, 12);
    await waitFor(() => redraws === 2);
    assert.deepEqual(judgements.judgementOf(result.id, 12)?.lines, judgeRun(result, { appRttMs: 12 }).lines);
    judgements.judgementOf('gone', undefined);
    await waitFor(() => redraws === 3);
    assert.equal(judgements.judgementOf('gone', undefined), null, 'a deleted run: no judgement');
    assert.deepEqual(loaded, [result.id, result.id, 'gone']);
  });
});

describe("the heartbeat's health", () => {
  const settings = { intervalSeconds: 30, warnAboveMs: 100 };
  const t0 = Date.parse('2025-01-01T12:00:00Z');

  test('up after an answer, down after a failure with the last success, up again', () => {
    const up = heartbeatHealth('pg', { atMs: t0, ok: true }, undefined);
    assert.equal(up.up, true);
    assert.equal(up.sentence, 'pg is up: the last run measured 1 sample (subsequent), none failed');
    const down = heartbeatHealth(
      'pg',
      { atMs: t0 + 30_000, ok: false, problem: 'refused: connect ECONNREFUSED' },
      up,
    );
    assert.equal(down.up, false);
    assert.equal(
      down.sentence,
      'pg is down: the last run measured nothing (refused: connect ECONNREFUSED); last success 2025-01-01T12:00:00Z',
    );
    assert.equal(heartbeatHealth('pg', { atMs: t0 + 60_000, ok: true }, down).up, true);
  });

  test('the status bar says down (not a stale p50) and the tooltip states the health first', () => {
    const down = heartbeatHealth('pg', { atMs: t0, ok: false, problem: 'timeout: no answer' }, undefined);
    // The window still holds earlier answers: its p50 is not what the status bar leads with.
    const { text, tooltip } = describeHeartbeat(
      { name: 'pg', driver: 'pg' },
      { count: 3, errors: 1, p50Us: 450, level: 'ok' },
      settings,
      { health: down, lastError: 'timeout: no answer' },
    );
    assert.equal(text, '$(error) pg down');
    assert.equal(tooltip.split('\n')[0], `${down.sentence}.`);
  });

  test("up: p50 here and at the app's RTT as the user set it", () => {
    const up = heartbeatHealth('pg', { atMs: t0, ok: true }, undefined);
    const { text, tooltip } = describeHeartbeat(
      { name: 'pg', driver: 'pg' },
      { count: 5, errors: 0, p50Us: 450, level: 'ok' },
      settings,
      { health: up, projected: { us: 12_350, appRttMs: 12, turns: 1, floorUs: 100 } },
    );
    assert.equal(text, '$(pulse) pg 0.5 ms here · ≈ 12.3 ms from your app (12 ms RTT)');
    assert.match(tooltip, /^pg is up: /);
  });
});

async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(done(), 'resolved within a second');
}
