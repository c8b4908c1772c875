/**
 * A heartbeat beat connects as a probe does, because it is a probe: a one-target `subsequent` run
 * through the engine (src/extension/heartbeat/heartbeatBeats.ts). Against the testbed's real servers:
 * - PostgreSQL over TLS (`sslmode=verify-full`) trusts the target's `tls.caFile`: the beat answers
 *   where the probe does, and fails with the probe's own words under a wrong CA;
 * - the nginx TLS + HTTP/2 front before ps-http-sim: with `http.version: "2"` nginx logs every beat
 *   request as HTTP/2.0, as it logs the probe's; with "1.1" as HTTP/1.1 (the log tells them apart).
 * The same target without `tls` fails in both alike (the system store does not trust the testbed CA),
 * so it is the caFile, reaching the beat's connect, that makes the certificate trusted.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { createRegistry } from '../../src/drivers/registry';
import { buildPlan } from '../../src/extension/config/planSettings';
import {
  heartbeatPlan,
  runHeartbeat,
  type HeartbeatBeat,
} from '../../src/extension/heartbeat/heartbeatBeats';
import { localPlace } from '../../src/places/localPlace';
import { resultOf } from '../../src/places/outcome';
import type { TargetSpec } from '../../src/shared/plan';
import { Redactor } from '../../src/shared/redact';
import type { Measurement } from '../../src/shared/result';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

const registry = createRegistry();
const place = localPlace({ registry, description: 'the test process' });
const BEATS = 2;
/** Short timeouts: a refused handshake answers at once, a hang must not hold the suite. */
const SETTINGS = { timeouts: { connectMs: 5_000, queryMs: 5_000, runMs: 30_000 } };

/** `target`'s connection string by its reference, as the editor's resolver gives it. */
function resolverFor(urls: Record<string, string>) {
  return async (target: TargetSpec) => urls[target.connection] ?? '';
}

/** BEATS beats of the heartbeat on `spec`, back to back. */
async function beats(spec: TargetSpec, urls: Record<string, string>): Promise<HeartbeatBeat[]> {
  const built = heartbeatPlan(spec, SETTINGS, undefined, registry.ids());
  assert.ok(built.ok, built.ok ? '' : built.problem);
  const seen: HeartbeatBeat[] = [];
  const ran = await runHeartbeat({
    place,
    plan: built.plan,
    everyMs: 10,
    maxBeats: BEATS,
    signal: new AbortController().signal,
    resolveConnection: resolverFor(urls),
    redactor: new Redactor(),
    onBeat: (beat) => seen.push(beat),
  });
  assert.equal(ran, BEATS);
  return seen;
}

/** The same target probed as the editor probes it (its plan built the same way), subsequent kind. */
async function probe(spec: TargetSpec, urls: Record<string, string>): Promise<Measurement> {
  const built = buildPlan([spec], ['subsequent'], { ...SETTINGS, iterations: 3, warmup: 1 }, undefined, [
    ...registry.ids(),
  ]);
  assert.ok(built.ok, built.ok ? '' : built.problem);
  const outcome = await place.run({
    plan: built.plan,
    resolveConnection: resolverFor(urls),
    redactor: new Redactor(),
    signal: new AbortController().signal,
  });
  const found = resultOf(outcome)?.measurements.find((m) => m.target === spec.name);
  assert.ok(found, JSON.stringify(outcome));
  return found;
}

describe('a heartbeat beat connects as a probe does', () => {
  test('PostgreSQL verify-full: tls.caFile is trusted by the beat as by the probe; without it or with a wrong CA both fail alike', async () => {
    const urls = { 'env:PG_TLS_URL': testbedEnv('DBPROBE_TEST_PG_TLS_URL') };
    const trusted: TargetSpec = {
      name: 'pg-tls',
      driver: 'pg',
      connection: 'env:PG_TLS_URL',
      tls: { caFile: testbedEnv('DBPROBE_TEST_CA_FILE') },
    };
    const probed = await probe(trusted, urls);
    assert.equal(probed.stats.count, 3, JSON.stringify(probed.firstErrors));
    const good = await beats(trusted, urls);
    assert.deepEqual(
      good.map((b) => [b.problem, typeof b.us]),
      Array(BEATS).fill([undefined, 'number']),
    );
    assert.ok(good.every((b) => b.us! > 0 && b.us! < 5_000_000));

    const untrusted: TargetSpec = { name: 'pg-tls', driver: 'pg', connection: 'env:PG_TLS_URL' };
    const wrong: TargetSpec = { ...trusted, tls: { caFile: testbedEnv('DBPROBE_TEST_WRONG_CA_FILE') } };
    for (const spec of [untrusted, wrong]) {
      const refused = await probe(spec, urls);
      assert.equal(refused.stats.count, 0);
      assert.deepEqual(Object.keys(refused.errorsByClass), ['tls']);
      const expected = refused.firstErrors.at(-1)?.message;
      assert.ok(expected);
      const bad = await beats(spec, urls);
      assert.deepEqual(
        bad.map((b) => [b.us, b.problem]),
        Array(BEATS).fill([undefined, expected]),
        JSON.stringify(spec.tls),
      );
      assertNoSecret([JSON.stringify([bad, refused])]);
    }
    assertNoSecret([JSON.stringify(good)]);
  });

  test('nginx HTTP/2 front: http.version "2" beats speak HTTP/2 as the probe does; "1.1" speaks HTTP/1.1', async () => {
    const log = path.join(testbedEnv('DBPROBE_TEST_H2_FRONT_LOG_DIR'), 'ps.access.log');
    const urls = { 'env:PS_H2_URL': testbedEnv('DBPROBE_TEST_H2_PS_URL') };
    const protocols = async (run: () => Promise<unknown>): Promise<string[]> => {
      const offset = statSync(log).size;
      await run();
      // nginx logs a request just after its response: give the last one a moment (bounded).
      const deadline = Date.now() + 3_000;
      let lines: string[];
      do {
        await new Promise((resolve) => setTimeout(resolve, 100));
        lines = readFileSync(log, 'utf8')
          .slice(offset)
          .split('\n')
          .filter((l) => l.trim() !== '');
      } while (lines.length < BEATS && Date.now() < deadline);
      return [...new Set(lines.map((line) => line.split(' ')[2] ?? ''))];
    };
    for (const [version, protocol] of [
      ['2', 'HTTP/2.0'],
      ['1.1', 'HTTP/1.1'],
    ] as const) {
      const spec: TargetSpec = {
        name: `ps-h${version}`,
        driver: 'planetscale',
        connection: 'env:PS_H2_URL',
        tls: { caFile: testbedEnv('DBPROBE_TEST_CA_FILE') },
        http: { version },
      };
      let probed: Measurement | undefined;
      assert.deepEqual(await protocols(async () => (probed = await probe(spec, urls))), [protocol]);
      assert.equal(probed?.stats.count, 3, JSON.stringify(probed?.firstErrors));
      let seen: HeartbeatBeat[] = [];
      assert.deepEqual(await protocols(async () => (seen = await beats(spec, urls))), [protocol], version);
      assert.deepEqual(
        seen.map((b) => b.problem),
        Array(BEATS).fill(undefined),
      );
      assertNoSecret([JSON.stringify(seen)]);
    }
  });
});
