/**
 * A run panel's view arrives in two messages (src/extension/model/panelDelivery.ts): every figure but
 * the evidence first, then the evidence (Differences, crossovers), computed after the first is posted.
 * Nothing is lost on the way: the two together are the whole view, the evidence always follows,
 * redacted like the rest, and the webview puts it into the view of its own run only
 * (webview/evidenceMerge.ts).
 */
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import {
  LATER_AT_THE_LATEST_MS,
  deliver,
  passedThrough,
  runDelivery,
} from '../../src/extension/model/panelDelivery';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import type { HostMessage } from '../../src/shared/messages';
import { isHostMessage } from '../../src/shared/messages';
import { Redactor, redactDeep } from '../../src/shared/redact';
import type { RunViewModel } from '../../src/shared/viewModel';
import { withRunEvidence } from '../../webview/evidenceMerge';
import { fakeResult } from '../helpers/extensionRunResult';

const OTHER_RUN = '99999999-2222-4333-8444-555555555555';

/** p50s (µs) of initial and subsequent: c connects slowly but queries fast, so its line crosses. */
const P50S: Record<string, [number, number]> = { a: [1_000, 1_000], b: [2_000, 2_000], c: [5_000, 200] };

/** Three targets, two kinds, 40 samples each: every pair has a Differences row. */
function run() {
  const targets = Object.keys(P50S).map((name) => ({ name, driver: 'pg', transport: 'tcp' }));
  return fakeResult(
    targets,
    targets.flatMap((t) =>
      (['initial', 'subsequent'] as const).map((kind, i) => {
        const p50Us = P50S[t.name]![i]!;
        return {
          target: t.name,
          kind,
          p50Us,
          samplesUs: Array.from({ length: 40 }, (_, k) => p50Us + ((k * 37) % 100)),
        };
      }),
    ),
  );
}

/** A post that resolves a tick later, as the webview's does, recording what it got. */
function recorder() {
  const posted: HostMessage[] = [];
  const post = async (message: HostMessage) => {
    posted.push(message);
    await new Promise((resolve) => setTimeout(resolve, 1));
    return true;
  };
  return { posted, post };
}

test('the first message is the whole view but the evidence; it follows, equal to the whole build', async () => {
  const result = run();
  const whole = buildRunViewModel(result);
  const { posted, post } = recorder();
  await deliver(runDelivery(result), post);
  assert.deepEqual(
    posted.map((m) => m.type),
    ['showRun', 'evidence'],
  );
  const [first, second] = posted;
  assert.ok(first?.type === 'showRun' && second?.type === 'evidence');
  // The first paint does not wait for the resamples.
  assert.equal(first.model.differences, undefined);
  assert.equal(first.model.expected.crossovers, undefined);
  assert.equal(first.model.expected.withinNoise, undefined);
  assert.equal(first.model.judgement, undefined, 'the judgement resamples too: it follows');
  const { differences, expected, judgement, ...rest } = whole;
  const { crossovers, withinNoise, ...lines } = expected;
  assert.deepEqual(first.model, { ...rest, expected: lines });
  assert.equal(second.runId, result.id);
  assert.equal(differences.comparisons.length, 6, 'three pairs per kind');
  assert.ok(crossovers.length + withinNoise.length > 0, 'the lines cross: a claim either way');
  assert.deepEqual(second.evidence, { differences, crossovers, withinNoise, judgement });
  assert.ok(judgement.lines.length > 0, 'the evidence states the verdict');
  assert.ok(posted.every(isHostMessage), 'both pass the webview guard');
});

test('the evidence is built only once the first message has been posted', async () => {
  const events: string[] = [];
  let releaseFirst: () => void = () => undefined;
  const done = deliver(
    {
      first: { type: 'missing', message: 'first' },
      later: () => {
        events.push('later built');
        return { type: 'missing', message: 'later' };
      },
    },
    (message) => {
      events.push(`posted ${message.type === 'missing' ? message.message : message.type}`);
      return message.type === 'missing' && message.message === 'first'
        ? new Promise<void>((resolve) => (releaseFirst = resolve))
        : Promise.resolve();
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(events, ['posted first'], 'nothing is computed while the first is on its way');
  releaseFirst();
  await done;
  assert.deepEqual(events, ['posted first', 'later built', 'posted later']);
});

/** A delivery whose later part records when it is built; posts resolve at once. */
function watched(events: string[]) {
  return {
    delivery: {
      first: { type: 'missing', message: 'first' } as HostMessage,
      later: (): HostMessage => {
        events.push('later built');
        return { type: 'missing', message: 'later' };
      },
    },
    post: async (message: HostMessage) => {
      events.push(`posted ${message.type === 'missing' ? message.message : message.type}`);
      return true;
    },
  };
}

test('the evidence waits for the webview to report its first paint', async () => {
  const events: string[] = [];
  const { delivery, post } = watched(events);
  let reportPaint: () => void = () => undefined;
  const painted = new Promise<void>((resolve) => (reportPaint = resolve));
  const done = deliver(delivery, post, painted);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(events, ['posted first'], 'nothing is computed while the webview paints');
  reportPaint();
  await done;
  assert.deepEqual(events, ['posted first', 'later built', 'posted later']);
});

test('a webview that never reports its paint still gets the evidence, LATER_AT_THE_LATEST_MS after', async (t) => {
  mock.timers.enable({ apis: ['setTimeout'] });
  t.after(() => mock.timers.reset());
  const events: string[] = [];
  const { delivery, post } = watched(events);
  const done = deliver(delivery, post, new Promise<void>(() => undefined));
  // Let the first post settle, then move the clock to just before and to the bound.
  for (let i = 0; i < 5; i++) await Promise.resolve();
  mock.timers.tick(LATER_AT_THE_LATEST_MS - 1);
  for (let i = 0; i < 5; i++) await Promise.resolve();
  assert.deepEqual(events, ['posted first']);
  mock.timers.tick(1);
  for (let i = 0; i < 10; i++) await Promise.resolve();
  assert.deepEqual(events, ['posted first', 'later built', 'posted later']);
  await done;
});

test('both messages take the boundary pass (redaction), the later one when it is built', async () => {
  const result = run();
  const secret = 'hunter2-sentinel-password';
  // A target name that carries a secret must not reach the webview in either message.
  const leaky = { ...result, targets: result.targets.map((t, i) => (i === 0 ? { ...t, name: secret } : t)) };
  leaky.measurements = result.measurements.map((m) => (m.target === 'a' ? { ...m, target: secret } : m));
  const redactor = new Redactor().addSecret(secret);
  const { posted, post } = recorder();
  await deliver(
    passedThrough(runDelivery(leaky), (m) => redactDeep(m, redactor)),
    post,
  );
  assert.equal(posted.length, 2);
  for (const message of posted) assert.ok(!JSON.stringify(message).includes(secret), message.type);
  assert.match(JSON.stringify(posted[1]), /\*\*\*\*/);
});

test('the webview takes the evidence into the view of its run only', () => {
  const result = run();
  const delivery = runDelivery(result);
  assert.ok(delivery.first.type === 'showRun' && delivery.later);
  const shown: RunViewModel = delivery.first.model;
  const later = delivery.later();
  assert.ok(!(later instanceof Promise) && later.type === 'evidence');
  const merged = withRunEvidence(shown, later);
  assert.deepEqual(merged, buildRunViewModel(result));
  assert.equal(withRunEvidence(shown, { ...later, runId: OTHER_RUN }), undefined, 'another run');
  assert.equal(withRunEvidence(undefined, later), undefined, 'no run shown');
});
