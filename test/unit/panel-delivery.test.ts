/**
 * A run panel's view arrives in two messages (src/extension/model/panelDelivery.ts): every section but
 * the Differences first, then the Differences, computed after the first is posted. Nothing is lost on
 * the way: the two together are the whole view, the Differences always follow, redacted like the rest,
 * and the webview puts them into the view of their own run only (webview/differencesMerge.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deliver, passedThrough, runDelivery } from '../../src/extension/model/panelDelivery';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import type { HostMessage } from '../../src/shared/messages';
import { isHostMessage } from '../../src/shared/messages';
import { Redactor, redactDeep } from '../../src/shared/redact';
import type { RunViewModel } from '../../src/shared/viewModel';
import { withDifferences } from '../../webview/differencesMerge';
import { fakeResult } from '../helpers/extensionRunResult';

const OTHER_RUN = '99999999-2222-4333-8444-555555555555';

/** Three targets, two kinds, 40 samples each: every pair has a Differences row. */
function run() {
  const targets = ['a', 'b', 'c'].map((name) => ({ name, driver: 'pg', transport: 'tcp' }));
  return fakeResult(
    targets,
    targets.flatMap((t, i) =>
      (['initial', 'subsequent'] as const).map((kind) => ({
        target: t.name,
        kind,
        p50Us: 1_000 * (i + 1),
        samplesUs: Array.from({ length: 40 }, (_, k) => 1_000 * (i + 1) + ((k * 37) % 300)),
      })),
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

test('the first message is the whole view but the Differences; they follow, equal to the whole build', async () => {
  const result = run();
  const whole = buildRunViewModel(result);
  const { posted, post } = recorder();
  await deliver(runDelivery(result), post);
  assert.deepEqual(
    posted.map((m) => m.type),
    ['showRun', 'differences'],
  );
  const [first, second] = posted;
  assert.ok(first?.type === 'showRun' && second?.type === 'differences');
  assert.equal(first.model.differences, undefined, 'the first paint does not wait for the resamples');
  const { differences, ...rest } = whole;
  assert.deepEqual(first.model, rest);
  assert.equal(second.runId, result.id);
  assert.ok(differences.comparisons.length === 6, 'three pairs per kind');
  assert.deepEqual(second.differences, differences);
  assert.ok(posted.every(isHostMessage), 'both pass the webview guard');
});

test('the Differences are built only once the first message has been posted', async () => {
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

test('the webview takes the Differences into the view of their run only', () => {
  const result = run();
  const delivery = runDelivery(result);
  assert.ok(delivery.first.type === 'showRun' && delivery.later);
  const shown: RunViewModel = delivery.first.model;
  const later = delivery.later();
  assert.ok(!(later instanceof Promise) && later.type === 'differences');
  const merged = withDifferences(shown, later);
  assert.deepEqual(merged, buildRunViewModel(result));
  assert.equal(withDifferences(shown, { ...later, runId: OTHER_RUN }), undefined, 'another run');
  assert.equal(withDifferences(undefined, later), undefined, 'no run shown');
});
