/** The runner client against a stand-in runner that misbehaves on purpose: every failure is data. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runRemote } from '../../src/places/runnerClient';
import { deadRunnerUrl, FAKE_SAMPLES, startFakeRunner, type FakeRunner } from '../helpers/fakeRunner';

const request = { plan: {} };

describe('a runner that goes silent', () => {
  let runner: FakeRunner;
  before(async () => (runner = await startFakeRunner('hang')));
  after(() => runner.close());

  test('is given up on after silenceMs, keeping what arrived', { timeout: 10_000 }, async () => {
    const started = process.hrtime.bigint();
    const outcome = await runRemote({ url: runner.url, token: 't', request, silenceMs: 300 });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(ms >= 250 && ms < 3000, `gave up after ${ms} ms`);
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.equal(outcome.failure.class, 'silent');
    assert.match(outcome.failure.message, /^runner http:\/\/127\.0\.0\.1:\d+ sent nothing for 0\.3 s/);
    assert.equal(outcome.partial?.measurements[0]?.stats.count, FAKE_SAMPLES);
    assert.equal(outcome.partial?.stopReason, outcome.failure.message);
  });

  test('cancelled by the caller: class cancelled, the partial result says so as a local one does', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const outcome = await runRemote({
      url: runner.url,
      token: 't',
      request,
      signal: controller.signal,
      silenceMs: 10_000,
    });
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.equal(outcome.failure.class, 'cancelled');
    assert.equal(outcome.partial?.state, 'cancelled');
    assert.equal(outcome.partial?.stopReason, 'cancelled by the user');
  });
});

test('an error status before any event is a refused failure with the status and code, no result', async () => {
  const runner = await startFakeRunner('refuse');
  try {
    const outcome = await runRemote({ url: runner.url, token: 't', request });
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.equal(outcome.failure.class, 'refused');
    assert.equal(outcome.failure.status, 403);
    assert.equal(outcome.failure.code, 'connection_refused_by_policy');
    assert.match(outcome.failure.message, /answered 403: host x is not allowed/);
    assert.equal(outcome.partial, undefined);
  } finally {
    await runner.close();
  }
});

test('an unreachable runner is an unreachable failure saying what to check', async () => {
  const outcome = await runRemote({ url: await deadRunnerUrl(), token: 't', request });
  assert.equal(outcome.ok, false);
  if (outcome.ok) return;
  assert.equal(outcome.failure.class, 'unreachable');
  assert.match(
    outcome.failure.message,
    /^cannot reach runner http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED; check the URL/,
  );
});

test('a runner killed mid-run: class cut, the partial result as data, a message that is only what happened', async () => {
  const runner = await startFakeRunner('die');
  try {
    const outcome = await runRemote({ url: runner.url, token: 't', request });
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.equal(outcome.failure.class, 'cut');
    assert.match(
      outcome.failure.message,
      /^the connection to runner http:\/\/127\.0\.0\.1:\d+ broke before the run finished \(\w+\)$/,
    );
    // How the partial result is shown is each caller's phrase: the client adds none to strip.
    assert.doesNotMatch(outcome.failure.message, /arrived|showing/);
    assert.equal(outcome.partial?.state, 'cancelled');
    assert.equal(outcome.partial?.measurements[0]?.stats.count, FAKE_SAMPLES);
    assert.equal(outcome.partial?.stopReason, outcome.failure.message);
  } finally {
    await runner.close();
  }
});
