/**
 * A target's `http.version`: its validation, the driver it reaches, the result that records it, and
 * the config error when the target's driver does not speak HTTP through fetch (no sample is taken).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConnectOptions, Driver } from '../../src/core/driver';
import { runPlan } from '../../src/core/engine';
import { ResultBuilder } from '../../src/core/resultBuilder';
import { formatIssues, validatePlan } from '../../src/core/validate/validatePlan';
import type { ProbeEvent } from '../../src/shared/events';
import type { TargetSpec } from '../../src/shared/plan';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const withHttp = (http: unknown) =>
  validatePlan({ targets: [{ name: 't', driver: 'http', connection: 'env:U', http }] }, ['http']);

test('http.version "1.1" and "2" pass (numbers too); anything else names the field and the choices', () => {
  for (const [given, version] of [
    ['2', '2'],
    ['1.1', '1.1'],
    [2, '2'],
    [1.1, '1.1'],
  ] as const) {
    const v = withHttp({ version: given });
    assert.ok(v.ok, JSON.stringify(given));
    assert.deepEqual(v.value.targets[0]?.http, { version });
  }
  const absent = withHttp(undefined);
  assert.ok(absent.ok);
  assert.equal(absent.value.targets[0]?.http, undefined);
  for (const [http, problem] of [
    ['2', /\.http: must be an object like \{"version": "2"\}/],
    [{}, /\.http\.version: is required: "1\.1" or "2"/],
    [{ version: '3' }, /\.http\.version: must be "1\.1" \(offer only http\/1\.1\) or "2" .*\(got "3"\)/],
    [{ version: '2', alpn: 'h2' }, /\.http: unknown field "alpn"; allowed: version/],
  ] as const) {
    const v = withHttp(http);
    assert.ok(!v.ok, JSON.stringify(http));
    assert.match(formatIssues(v.issues), problem);
  }
});

/** A fake driver of a given transport that keeps the options each connect received. */
function recordingDriver(id: string, transport: 'tcp' | 'http', seen: ConnectOptions[]): Driver {
  const clock = new FakeClock();
  const inner = fakeDriver(id, clock, { connectUs: [100], queryUs: [50] }, new FakeDriverStats());
  return {
    info: { ...inner.info, transport },
    connect: (options) => {
      seen.push(options);
      return inner.connect(options);
    },
  };
}

async function run(spec: TargetSpec, driver: Driver) {
  return runPlan(plan([spec], { kinds: ['initial'], iterations: 3 }), {
    registry: fakeRegistry([driver]),
    resolveConnection: async () => 'fake://u:p@h/db',
    tool: TOOL,
  });
}

test('the version reaches an HTTP driver and the result records it on the target', async () => {
  const seen: ConnectOptions[] = [];
  const result = await run(
    { ...target('web'), http: { version: '2' } },
    recordingDriver('web', 'http', seen),
  );
  assert.equal(seen.length, 3);
  assert.ok(seen.every((options) => options.http?.version === '2'));
  assert.deepEqual(result.targets[0]?.http, { version: '2' });
  const plain: ConnectOptions[] = [];
  const without = await run(target('web'), recordingDriver('web', 'http', plain));
  assert.ok(plain.every((options) => options.http === undefined));
  assert.equal(without.targets[0]?.http, undefined);
});

test('http.version on a driver that does not speak HTTP is a config error, and no sample is taken', async () => {
  const seen: ConnectOptions[] = [];
  const result = await run({ ...target('db'), http: { version: '2' } }, recordingDriver('db', 'tcp', seen));
  assert.equal(seen.length, 0);
  const m = result.measurements[0];
  assert.ok(m);
  assert.equal(m.stats.count, 0);
  assert.equal(m.firstErrors[0]?.class, 'config');
  assert.match(
    m.firstErrors[0]?.message ?? '',
    /"http\.version" applies to drivers that speak HTTP.*uses tcp; remove "http"/,
  );
});

test('alpn and its reason travel in the sample events: a result rebuilt from them has the same wire figures', async () => {
  const clock = new FakeClock();
  const inner = fakeDriver('web', clock, { connectUs: [100], queryUs: [50] }, new FakeDriverStats());
  // A driver that, like a plaintext fetch session, says why its connections have no ALPN.
  const driver: Driver = {
    info: { ...inner.info, transport: 'http' },
    connect: (options) => {
      options.phases?.wireUnmeasured('alpn', 'plaintext http: no ALPN');
      return inner.connect(options);
    },
  };
  const events: ProbeEvent[] = [];
  const result = await runPlan(plan([target('web')], { kinds: ['initial'], iterations: 4, warmup: 1 }), {
    registry: fakeRegistry([driver]),
    resolveConnection: async () => 'fake://u:p@h/db',
    tool: TOOL,
    clock,
    watchClient: false,
    onEvent: (e) => events.push(e),
  });
  // The other wire figures (client CPU, the unseen socket's reasons) are the wire accounting's own.
  assert.equal(result.measurements[0]?.wire?.unmeasured?.alpn, 'plaintext http: no ALPN');
  assert.equal(result.measurements[0]?.wire?.alpn, undefined);
  // Only the first measured sample carries the reason, as it does for the connect steps.
  const samples = events.filter((e) => e.type === 'sample');
  assert.equal(samples.filter((e) => e.wireUnmeasured !== undefined).length, 1);
  const builder = new ResultBuilder();
  events.filter((e) => e.type !== 'done').forEach((e) => builder.add(e));
  assert.deepEqual(builder.build('cut')?.measurements[0]?.wire, result.measurements[0]?.wire);
});
