/**
 * mongodb through the engine against FerretDB (MongoDB wire protocol on SQLite), every workload form.
 * A counting TCP pass-through in front of FerretDB counts connections. The official driver always
 * holds a monitoring socket beside the one it queries on, so a MongoClient is two TCP connections:
 * `initial` opens both every sample, `subsequent` opens them once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '../fixtures/connections';
import { startCountingProxy, type CountingProxy } from '../fixtures/countingProxy';
import { describeErrors, measurement, probeTargets } from '../fixtures/probe';
import { testbedEnv, withUrl } from '../helpers/testbed';

const ITERATIONS = 10;
const WARMUP = 2;
const SAMPLES = ITERATIONS + WARMUP;

describe('mongodb against FerretDB', () => {
  let proxy: CountingProxy;
  let url: string;
  const collection = `probe_${randomUUID().slice(0, 8)}`;
  before(async () => {
    const ferret = new URL(testbedEnv('DBPROBE_TEST_MONGO_URL'));
    proxy = await startCountingProxy(ferret.hostname, Number(ferret.port));
    url = withUrl(ferret.toString(), (u) => (u.port = String(proxy.port)));
  });
  after(async () => proxy?.close());

  test('initial: new connections every sample (monitor + pooled socket), none left open', async (t) => {
    const before = proxy.stats();
    const result = await probeTargets([{ name: 'mongo ping', driver: 'mongodb', url }], {
      kinds: ['initial'],
      iterations: ITERATIONS,
      warmup: WARMUP,
    });
    const m = measurement(result, 'mongo ping', 'initial');
    assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
    assert.equal(m.stats.errors, 0);
    assert.equal(result.targets[0]?.query, '{ping:1}');
    const after = await waitFor(
      () => proxy.stats(),
      (s) => s.open === 0,
    );
    const opened = after.accepted - before.accepted;
    t.diagnostic(`${opened} TCP connections for ${SAMPLES} samples`);
    // FerretDB does not stream hello, so the driver opens no third (RTT) socket.
    assert.equal(opened, 2 * SAMPLES, 'monitor + pooled socket per sample');
    assert.equal(after.open, 0);
  });

  test('subsequent: the same connections for every sample', async (t) => {
    const before = proxy.stats();
    const result = await probeTargets([{ name: 'mongo ping', driver: 'mongodb', url }], {
      kinds: ['subsequent'],
      iterations: ITERATIONS,
      warmup: WARMUP,
    });
    const m = measurement(result, 'mongo ping', 'subsequent');
    assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
    const after = await waitFor(
      () => proxy.stats(),
      (s) => s.open === 0,
    );
    const opened = after.accepted - before.accepted;
    t.diagnostic(`${opened} TCP connections for ${SAMPLES} samples`);
    assert.equal(opened, 2, 'monitor + pooled socket, once');
    assert.equal(after.open, 0);
  });

  test('workloads: insertOne, findOne, find with limit, a command', async () => {
    const targets = [
      { name: 'insert', query: `insertOne ${collection} {"kind":"probe","n":1}` },
      { name: 'findOne', query: `findOne ${collection} {kind:"probe"}` },
      { name: 'find', query: `find ${collection} {} limit 5` },
      { name: 'count', query: `{count:"${collection}"}` },
    ].map((t) => ({ ...t, driver: 'mongodb', url }));
    const result = await probeTargets(targets, {
      kinds: ['subsequent'],
      iterations: 5,
      warmup: 1,
      order: 'sequential',
    });
    for (const t of targets) {
      const m = measurement(result, t.name, 'subsequent');
      assert.equal(m.stats.count, 5, `${t.name}: ${describeErrors(m)}`);
    }
  });

  test('a workload the driver cannot read is a query error naming the forms', async () => {
    const result = await probeTargets([{ name: 'bad', driver: 'mongodb', url, query: 'findMany users' }], {
      kinds: ['subsequent'],
      iterations: 2,
      warmup: 0,
    });
    const m = measurement(result, 'bad', 'subsequent');
    assert.equal(m.errorsByClass.query, 2);
    assert.match(m.firstErrors[0]?.message ?? '', /findOne COLL/);
  });
});
