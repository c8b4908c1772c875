/**
 * A kept-alive HTTP connection the server closes after so many requests (nginx: 1,000 by default,
 * `keepalive_requests`) is replaced by the client out of the warm connection's watch. The samples
 * sent on the new connection must say their round trips and bytes were not seen, never count 0:
 * a 0 would read as "answered without a turn" and feed the projection. Through the testbed's real
 * nginx front (service `h2front`) with the upstash driver, one warm connection, more samples than
 * the front keeps a connection for. nginx's access log says how many requests went out on the
 * connections after the first: exactly that many samples must carry no count.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { describeErrors, measurement, probeTargets } from '../fixtures/probe';
import { testbedEnv } from '../helpers/testbed';

/** nginx's keepalive_requests default (1.19.10 on): the front closes a connection after this many. */
const NGINX_KEEPALIVE_REQUESTS = 1_000;
const ITERATIONS = NGINX_KEEPALIVE_REQUESTS + 100;

/** Requests per client connection (nginx's `$connection` serial) in the upstash front's log after `from`, in order. */
function requestsByConnection(log: string, from: number): Map<string, number> {
  const lines = readFileSync(log, 'utf8').slice(from).split('\n').filter(Boolean);
  const counts = new Map<string, number>();
  for (const line of lines) {
    const serial = line.split(' ')[0] ?? '';
    counts.set(serial, (counts.get(serial) ?? 0) + 1);
  }
  return counts;
}

test('samples on a connection the client opened after the server closed the watched one are unmeasured, not 0', async () => {
  const log = path.join(testbedEnv('DBPROBE_TEST_H2_FRONT_LOG_DIR'), 'upstash.access.log');
  const logStart = readFileSync(log, 'utf8').length;
  const result = await probeTargets(
    [
      {
        name: 'upstash',
        driver: 'upstash',
        url: testbedEnv('DBPROBE_TEST_H2_UPSTASH_URL'),
        tls: { caFile: testbedEnv('DBPROBE_TEST_CA_FILE') },
      },
    ],
    { kinds: ['subsequent'], iterations: ITERATIONS, warmup: 1, queryMs: 10_000 },
  );
  const m = measurement(result, 'upstash', 'subsequent');
  assert.equal(m.stats.errors, 0, describeErrors(m));
  const served = [...requestsByConnection(log, logStart).values()];
  assert.ok(
    served.length >= 2,
    `nginx served the run on ${served.length} connection(s): the test needs it to close one`,
  );
  // Every request after the first connection's went out on one the client opened later.
  const onLater = served.slice(1).reduce((sum, n) => sum + n, 0);

  const values = m.samples.values;
  const counted = values.filter((sample) => sample.wire?.roundTrips !== undefined);
  // Before nginx closed the watched connection, each warm query is one counted turn with bytes.
  assert.ok(counted.length >= NGINX_KEEPALIVE_REQUESTS / 2, `${counted.length} samples counted`);
  for (const sample of counted) {
    assert.equal(sample.wire?.roundTrips, 1, JSON.stringify(sample));
    assert.ok(
      (sample.wire?.bytesSent ?? 0) > 0 && (sample.wire?.bytesReceived ?? 0) > 0,
      JSON.stringify(sample),
    );
  }
  // After it, exactly those samples carry no count (none counts 0): the kind's figure is the
  // median of the samples that were seen.
  assert.equal(values.length - counted.length, onLater, `served per connection: ${served.join(', ')}`);
  assert.equal(m.wire?.roundTrips, 1, 'the kind counts the turns it saw');
});
