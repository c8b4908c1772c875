/**
 * One silence rule for both callers: a runner that goes silent is given up on after one connect
 * timeout + one query timeout + the grace period, by the CLI (probeAndReport) and by the extension
 * (its runner place, through runEverywhere as runPlaces calls it) alike, keeping what arrived, with
 * the failure as data. The grace is shortened here (200 ms); the rule's own default is checked apart.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { probeAndReport } from '../../src/cli/probe';
import type { PlaceOutcome } from '../../src/places/outcome';
import { runEverywhere } from '../../src/places/runEverywhere';
import { runnerPlace } from '../../src/places/runnerPlace';
import { SILENCE_GRACE_MS, silenceLimitMs } from '../../src/places/silence';
import { Redactor } from '../../src/shared/redact';
import type { RunResult } from '../../src/shared/result';
import { recordingIo } from '../helpers/cliIo';
import { FAKE_SAMPLES, startFakeRunner, type FakeRunner } from '../helpers/fakeRunner';
import { plan } from '../helpers/plans';

const GRACE_MS = 200;
const PLAN = plan([{ name: 'pg', driver: 'pg', connection: 'env:PG' }], {
  timeouts: { connectMs: 50, queryMs: 50, runMs: 60_000 },
});
/** 50 + 50 + 200 ms. */
const RULE_MS = silenceLimitMs(PLAN.timeouts, GRACE_MS);

function since(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

test('the rule: one connect timeout, one query timeout and 15 s of grace', () => {
  assert.equal(SILENCE_GRACE_MS, 15_000);
  assert.equal(silenceLimitMs({ connectMs: 10_000, queryMs: 5_000 }), 30_000);
  assert.equal(RULE_MS, 300);
});

describe('a runner that goes silent after three samples', () => {
  let runner: FakeRunner;
  before(async () => (runner = await startFakeRunner('hang')));
  after(() => runner.close());

  test(
    'the CLI gives up after the rule, prints the partial report and exits 1',
    { timeout: 10_000 },
    async () => {
      const io = recordingIo();
      const started = process.hrtime.bigint();
      const code = await probeAndReport(
        {
          // As `dbprobe run --runner URL` makes it, with the grace shortened.
          places: [
            runnerPlace({ url: runner.url, token: 'tok', label: runner.url, silenceGraceMs: GRACE_MS }),
          ],
          plan: PLAN,
          resolveConnection: async () => '',
          redactor: new Redactor(),
          format: 'json',
          quiet: true,
        },
        io,
      );
      const ms = since(started);
      assert.ok(ms >= RULE_MS - 20 && ms < 5000, `gave up after ${ms} ms`);
      assert.equal(code, 1);
      assert.match(
        io.err(),
        /^dbprobe: runner http:\/\/127\.0\.0\.1:\d+ sent nothing for 0\.3 s, so the run was given up on; check that the runner is up and reachable from here; the report holds what arrived\n$/,
      );
      const report = JSON.parse(io.out()) as RunResult;
      assert.equal(report.measurements[0]?.stats.count, FAKE_SAMPLES);
      assert.match(report.stopReason ?? '', /sent nothing for 0\.3 s/);
    },
  );

  test(
    'the extension gives up after the same rule, with the failure as data',
    { timeout: 10_000 },
    async () => {
      const settled: PlaceOutcome[] = [];
      const started = process.hrtime.bigint();
      // As preparePlaces makes a runner place, and runPlaces runs it.
      const place = runnerPlace({
        name: 'use1',
        url: runner.url,
        token: 'tok',
        label: 'us-east-1',
        title: 'runner "use1" (us-east-1)',
        silenceGraceMs: GRACE_MS,
      });
      const [outcome] = await runEverywhere([{ place, plan: PLAN }], {
        resolveConnection: async () => '',
        redactor: new Redactor(),
        signal: new AbortController().signal,
        onEvent: () => undefined,
        onSettled: (_index, o) => settled.push(o),
      });
      const ms = since(started);
      assert.ok(ms >= RULE_MS - 20 && ms < 5000, `gave up after ${ms} ms`);
      assert.equal(settled[0], outcome);
      assert.ok(outcome && !outcome.ok, 'the place failed');
      assert.equal(outcome.failure.class, 'silent');
      assert.match(
        outcome.failure.message,
        /^runner "use1" \(us-east-1\): runner http:\/\/127\.0\.0\.1:\d+ sent nothing for 0\.3 s/,
      );
      assert.equal(outcome.partial?.measurements[0]?.stats.count, FAKE_SAMPLES);
      assert.match(outcome.partial?.stopReason ?? '', /sent nothing for 0\.3 s/);
    },
  );
});

test('the CLI with a runner killed mid-run says once that the report holds what arrived', async () => {
  const runner = await startFakeRunner('die');
  try {
    const io = recordingIo();
    const code = await probeAndReport(
      {
        places: [runnerPlace({ url: runner.url, token: 'tok', label: runner.url })],
        plan: PLAN,
        resolveConnection: async () => '',
        redactor: new Redactor(),
        format: 'markdown',
        quiet: true,
      },
      io,
    );
    assert.equal(code, 1);
    assert.match(
      io.err(),
      /^dbprobe: the connection to runner http:\/\/127\.0\.0\.1:\d+ broke before the run finished \(\w+\); the report holds what arrived\n$/,
    );
    assert.match(io.out(), /\| pg \| pg \| tcp \|/);
  } finally {
    await runner.close();
  }
});
