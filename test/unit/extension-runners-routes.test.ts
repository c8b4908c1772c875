import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  applyConsent,
  checkLimits,
  routeTarget,
  routeTargets,
  runnerPlan,
  type RunnerFacts,
} from '../../src/extension/runners/routes';
import { RUNNER_DEFAULT_LIMITS } from '../../src/shared/runnerPlanLimits';
import { plan } from '../helpers/plans';

const refusing: RunnerFacts = {
  name: 'use1',
  secure: true,
  env: { mapped: 'MAPPED_URL' },
  health: { drivers: ['pg', 'ioredis'], acceptsClientConnections: false },
};
const accepting: RunnerFacts = {
  ...refusing,
  health: { ...refusing.health, acceptsClientConnections: true },
};
const NONE = new Set<string>();

test('env:VAR goes by name and reference: the runner resolves it itself', () => {
  const route = routeTarget({ name: 'a', driver: 'pg', connection: 'env:PG_URL' }, refusing, NONE);
  assert.deepEqual(route, { target: 'a', via: 'reference', connection: 'env:PG_URL' });
});

test('secret:NAME mapped in the runner setting goes as env:VAR, whatever the runner accepts', () => {
  for (const runner of [refusing, accepting]) {
    const route = routeTarget({ name: 'm', driver: 'pg', connection: 'secret:mapped' }, runner, NONE);
    assert.deepEqual(route, { target: 'm', via: 'reference', connection: 'env:MAPPED_URL' });
  }
});

test('secret:NAME to a runner that refuses connection strings is skipped with the variable to set', () => {
  const route = routeTarget({ name: 'neon', driver: 'pg', connection: 'secret:neon-main' }, refusing, NONE);
  assert.equal(route.via, 'skip');
  const reason = route.via === 'skip' ? route.reason : '';
  assert.match(reason, /runner "use1" cannot read secret:neon-main/);
  assert.match(reason, /set NEON_MAIN to its connection string in the runner's environment/);
  assert.match(reason, /"env": \{"neon-main": "NEON_MAIN"\}/);
  assert.match(reason, /DBPROBE_ALLOW_CLIENT_CONNECTIONS=1/);
});

test('secret:NAME to a runner that accepts connection strings needs consent; declining skips it', () => {
  const route = routeTarget({ name: 'neon', driver: 'pg', connection: 'secret:neon-main' }, accepting, NONE);
  assert.deepEqual(route, { target: 'neon', via: 'connectionString', secret: 'neon-main' });
  assert.deepEqual(applyConsent([route], 'use1', true), [route]);
  const [declined] = applyConsent([route], 'use1', false);
  assert.equal(declined?.via, 'skip');
  assert.match(declined?.via === 'skip' ? declined.reason : '', /chose not to send.*NEON_MAIN/);
});

test('a connection string never goes over plain http to another machine', () => {
  const route = routeTarget(
    { name: 'neon', driver: 'pg', connection: 'secret:neon-main' },
    { ...accepting, secure: false },
    NONE,
  );
  assert.equal(route.via, 'skip');
  assert.match(route.via === 'skip' ? route.reason : '', /unencrypted.*https/);
});

test('missing drivers and this-machine-only databases are skipped, saying why', () => {
  const noDriver = routeTarget({ name: 'my', driver: 'mysql2', connection: 'env:MY' }, refusing, NONE);
  assert.match(noDriver.via === 'skip' ? noDriver.reason : '', /no mysql2 driver \(it offers pg, ioredis\)/);
  const demo = routeTarget(
    { name: 'demo', driver: 'pg', connection: 'env:DBPROBE_DEMO' },
    refusing,
    new Set(['env:DBPROBE_DEMO']),
  );
  assert.match(demo.via === 'skip' ? demo.reason : '', /this machine only/);
});

test("the runner's share of the plan: its targets, mapped references, what to send, what was skipped", () => {
  const full = plan([
    { name: 'pg', driver: 'pg', connection: 'env:PG_URL' },
    { name: 'mapped', driver: 'pg', connection: 'secret:mapped', query: 'SELECT 2' },
    { name: 'sent', driver: 'ioredis', connection: 'secret:redis' },
    { name: 'no', driver: 'pg', connection: 'secret:other' },
  ]);
  const share = runnerPlan(
    full,
    routeTargets(full.targets, { ...accepting, health: { ...accepting.health } }, NONE),
  );
  assert.ok(share);
  assert.deepEqual(
    share.plan.targets.map((t) => [t.name, t.connection, t.query]),
    [
      ['pg', 'env:PG_URL', undefined],
      ['mapped', 'env:MAPPED_URL', 'SELECT 2'],
      ['sent', 'secret:redis', undefined],
      ['no', 'secret:other', undefined],
    ],
  );
  assert.deepEqual(share.send, [
    { target: 'sent', secret: 'redis' },
    { target: 'no', secret: 'other' },
  ]);
  assert.equal(share.plan.iterations, full.iterations, 'everything else of the plan is kept');

  const refused = runnerPlan(full, routeTargets(full.targets, refusing, NONE));
  assert.deepEqual(
    refused?.skipped.map((s) => s.target),
    ['sent', 'no'],
  );
  assert.deepEqual(refused?.send, []);
  assert.equal(
    runnerPlan(plan([full.targets[3]!]), routeTargets([full.targets[3]!], refusing, NONE)),
    undefined,
  );
});

test("limits: a plan over the runner's limits is stopped before sending, naming what to change", () => {
  const p = plan([{ name: 'pg', driver: 'pg', connection: 'env:PG' }], { iterations: 20_000 });
  assert.match(
    checkLimits(p, RUNNER_DEFAULT_LIMITS, 'use1') ?? '',
    /runner "use1" allows at most 10000 iterations per run \(this plan has 20000\); lower dbprobe.iterations, or raise DBPROBE_MAX_ITERATIONS/,
  );
  assert.equal(checkLimits({ ...p, iterations: 50 }, RUNNER_DEFAULT_LIMITS, 'use1'), undefined);
  // The warm-up figure comes from the one limits table (shared/limits.ts) too, with its own setting.
  assert.match(
    checkLimits({ ...p, iterations: 50, warmup: 5_000 }, RUNNER_DEFAULT_LIMITS, 'use1') ?? '',
    /allows at most 1000 warm-up samples per run \(this plan has 5000\); lower dbprobe.warmup, or raise DBPROBE_MAX_WARMUP /,
  );
});
