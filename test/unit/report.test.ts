import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { crossover, expectedLatency } from '../../src/shared/judgement/expected';
import { FORMATTERS } from '../../src/report/formatters';
import type { RunResult } from '../../src/shared/result';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

/** "tcp": slow connect, fast queries; "http": no connect cost, slower queries. */
async function sampleRun(): Promise<RunResult> {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver('tcp', clock, { connectUs: [20_000], queryUs: [1_000] }, new FakeDriverStats()),
    fakeDriver('http', clock, { connectUs: [0], queryUs: [8_000] }, new FakeDriverStats()),
  ]);
  return runPlan(plan([target('tcp'), target('http')], { iterations: 10, warmup: 1 }), {
    registry,
    resolveConnection: async () => 'fake://u:p@h/db',
    tool: TOOL,
    clock,
    watchClient: false,
  });
}

test('expected latency: initial + (n-1) x subsequent, from p50', async () => {
  const rows = expectedLatency(await sampleRun(), 5);
  const tcp = rows.find((r) => r.target === 'tcp')!;
  const http = rows.find((r) => r.target === 'http')!;
  assert.deepEqual(tcp.totalsUs, [21_000, 22_000, 23_000, 24_000, 25_000]);
  assert.deepEqual(http.totalsUs, [8_000, 16_000, 24_000, 32_000, 40_000]);
  assert.equal(crossover(tcp, http), 3, 'TCP wins from 3 queries per request (23 ms < 24 ms)');
  assert.equal(crossover(http, tcp), undefined, 'HTTP is ahead from the start, so there is no crossover');
});

test('markdown has the blog-style tables, the expected-latency table and the footer', async () => {
  const md = FORMATTERS.markdown(await sampleRun());
  assert.match(md, /## Initial query \(new connection \+ first query\)/);
  assert.match(md, /## Subsequent query \(warm connection\)/);
  assert.match(
    md,
    /\| Target \| Driver \| Transport \| n \| avg \| p50 \| p90 \| p95 \| p99 \| max \| stddev \| errors \|/,
  );
  assert.match(md, /\| tcp \| tcp \| tcp \| 10 \| 21\.000 \| 21\.000 \|/);
  assert.match(md, /\| http \| http \| tcp \| 10 \| 8\.000 \| 8\.000 \|/);
  assert.match(md, /## Where a new connection spends its time \(initial\)/);
  // The fake driver has no socket: no DNS/TCP/TLS split and no floor, never zeros in their place.
  assert.match(md, /\| tcp \| - \| - \| - \| - \| 1\.000 \| 20\.000 \| 21\.000 \| - \|/);
  assert.match(md, /## Expected latency for 1\.\.5 sequential queries/);
  assert.match(md, /\| tcp \| 21\.000 \| 1\.000 \| 21\.000 \| 22\.000 \| 23\.000 \| 24\.000 \| 25\.000 \|/);
  assert.match(md, /Measured by dbprobe test from this machine/);
});

test('csv has a header and one row per kept sample', async () => {
  const result = await sampleRun();
  const lines = FORMATTERS.csv(result).trim().split('\n');
  assert.equal(
    lines[0],
    'run_id,target,driver,transport,kind,sample,at_us,latency_us,error,client_limited,tls_not_verified',
  );
  assert.equal(lines.length, 1 + 2 * 2 * 10);
  assert.match(lines[1]!, new RegExp(`^${result.id},tcp,tcp,tcp,initial,0,\\d+,21000,,,$`));
});

test('json is the run result itself', async () => {
  const result = await sampleRun();
  assert.deepEqual(JSON.parse(FORMATTERS.json(result)), JSON.parse(JSON.stringify(result)));
});
