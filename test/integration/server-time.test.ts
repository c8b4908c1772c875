/**
 * Where a query's time goes, against independent truths on the testbed. Per server, one run of two
 * targets interleaved: through toxiproxy (plain), and through toxiproxy with 10 ms of downstream
 * latency (delayed), on a workload whose time in the database is known:
 * - pg: `SELECT pg_sleep(0.02)`, its time from EXPLAIN ANALYZE;
 * - PlanetScale's HTTP API (ps-http-sim before MariaDB): `SELECT SLEEP(0.02)`, from its `timing`;
 * - libSQL over HTTP (the Hrana stand-in, holding each statement 20 ms and reporting
 *   query_duration_ms as libsql-server does);
 * - Redis: a script that keeps the server busy 5 ms by its own clock (short: the testbed's Redis is
 *   shared, and a script blocks every client), from INFO commandstats.
 * Checked per kind: the database part is the known time within 1 ms, on both paths (distance never
 * leaks into it); the distance the delay added (delayed p50 - the plain path's local part) is the
 * counted turns x the delayed path's RTT within 5%; and the parts, with each turn priced at that
 * RTT, add up to the delayed p50 within 5%. The RTT is measured by one-byte echoes through the same
 * toxic (10 ms plus toxiproxy's own excess), and the TCP handshake costs the floor, not the RTT
 * (toxiproxy accepts the connection itself), as the projection test accounts for them.
 *
 * Then the notes: a source the server refuses (pg_stat_statements missing for a write, MariaDB's
 * performance_schema, FerretDB's opLatencies, INFO denied by an ACL) leaves the run green with one
 * note per measurement.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import Redis from 'ioredis';
import type { ProbeKind } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { splitRun, type QuerySplit } from '../../src/shared/querySplit';
import { echoRttUs } from '../fixtures/echoRtt';
import { startHranaStandIn } from '../fixtures/hranaStandIn';
import { describeErrors, measurement, probeTargets } from '../fixtures/probe';
import { createToxiProxy, type ToxiProxy } from '../fixtures/toxiproxy';
import { tempDir } from '../helpers/tempDir';
import { testbedEnv, withUrl } from '../helpers/testbed';

const DELAY_MS = 10;
const KINDS: ProbeKind[] = ['initial', 'subsequent'];
const ITERATIONS = 20;

interface Case {
  name: string;
  driver: string;
  query: string;
  /** The database's known time for the workload (µs). */
  knownUs: number;
  source: string;
  url: () => Promise<{ url: string; close?: () => Promise<void> }>;
}

const viaPort = (url: string, port: number) => withUrl(url, (u) => (u.port = String(port)));
const hostPort = (url: string) => `${new URL(url).hostname}:${new URL(url).port}`;

/** Keeps Redis busy `ms` by its own clock, then answers 1. */
const BUSY_SCRIPT = (ms: number) =>
  `local t = redis.call('TIME') local s = t[1] * 1000000 + t[2] repeat local n = redis.call('TIME') until n[1] * 1000000 + n[2] - s >= ${ms * 1000} return 1`;

const dir = tempDir('server-time');
let redisSha = '';

const CASES: Case[] = [
  {
    name: 'pg',
    driver: 'pg',
    query: 'SELECT pg_sleep(0.02)',
    knownUs: 20_000,
    source: 'explain-analyze',
    url: async () => ({ url: testbedEnv('DBPROBE_TEST_PG_URL') }),
  },
  {
    name: 'planetscale',
    driver: 'planetscale',
    query: 'SELECT SLEEP(0.02)',
    knownUs: 20_000,
    source: 'planetscale-timing',
    url: async () => ({ url: testbedEnv('DBPROBE_TEST_PS_URL') }),
  },
  {
    name: 'libsql',
    driver: 'libsql',
    query: 'SELECT 1',
    knownUs: 20_000,
    source: 'hrana',
    url: async () => {
      const standIn = await startHranaStandIn({
        file: path.join(dir, 'hrana.db'),
        timing: { report: true, holdMs: 20 },
      });
      return { url: standIn.httpUrl, close: () => standIn.close() };
    },
  },
  {
    name: 'redis',
    driver: 'ioredis',
    query: 'EVALSHA SHA 0',
    knownUs: 5_000,
    source: 'commandstats',
    url: async () => ({ url: testbedEnv('DBPROBE_TEST_REDIS_URL') }),
  },
];

const proxies: ToxiProxy[] = [];
const closers: (() => Promise<void>)[] = [];
let rttUs = 0;

before(async () => {
  const redis = new Redis(testbedEnv('DBPROBE_TEST_REDIS_URL'), { lazyConnect: true });
  await redis.connect();
  redisSha = String(await redis.script('LOAD', BUSY_SCRIPT(5)));
  await redis.quit();
  rttUs = await echoRttUs(testbedEnv('DBPROBE_TEST_TOXIPROXY_URL'), DELAY_MS, 30);
});

after(async () => {
  for (const proxy of proxies) await proxy.remove();
  for (const close of closers) await close();
});

/** Plain and delayed targets of one server in one run. */
async function runThrough(c: Case): Promise<RunResult> {
  const api = testbedEnv('DBPROBE_TEST_TOXIPROXY_URL');
  const { url, close } = await c.url();
  if (close) closers.push(close);
  const plain = await createToxiProxy(api, hostPort(url), `st_${c.name}_plain`);
  const delayed = await createToxiProxy(api, hostPort(url), `st_${c.name}_delayed`);
  proxies.push(plain, delayed);
  await delayed.addToxic('latency', { latency: DELAY_MS, jitter: 0 }, 'downstream');
  const query = c.query.replace('SHA', redisSha);
  return probeTargets(
    [
      { name: 'plain', driver: c.driver, url: viaPort(url, plain.port), query },
      { name: 'delayed', driver: c.driver, url: viaPort(url, delayed.port), query },
    ],
    { kinds: KINDS, iterations: ITERATIONS, warmup: 2 },
  );
}

const msText = (us: number) => `${(us / 1000).toFixed(2)} ms`;

describe('the database part against a known server time, and the distance against injected delay', () => {
  for (const c of CASES) {
    test(`${c.name}: ${c.query.replace('SHA', '<busy 5 ms>')}`, async () => {
      const result = await runThrough(c);
      const splits = splitRun(result.measurements, ['plain', 'delayed']).splits;
      for (const kind of KINDS) {
        const plainM = measurement(result, 'plain', kind);
        const delayedM = measurement(result, 'delayed', kind);
        assert.equal(
          plainM.stats.errors + delayedM.stats.errors,
          0,
          describeErrors(plainM) + describeErrors(delayedM),
        );
        const split = (target: string): QuerySplit => {
          const found = splits.find((s) => s.target === target && s.kind === kind);
          assert.ok(found, `no split for ${target} ${kind}`);
          return found;
        };
        const plainSplit = split('plain');
        for (const m of [plainM, delayedM]) {
          assert.equal(
            m.serverTime?.source,
            c.source,
            `${m.target} ${kind}: ${JSON.stringify(m.serverTime)}`,
          );
          const db = m.serverTime?.p50Us ?? NaN;
          assert.ok(
            Math.abs(db - c.knownUs) <= 1_000,
            `${m.target} ${kind}: database ${msText(db)}, known ${msText(c.knownUs)} (within 1 ms)`,
          );
        }
        // The delayed path pays each round trip at the echo RTT; its TCP handshake at the floor.
        const wire = delayedM.wire;
        assert.ok(wire?.roundTrips !== undefined, `${kind}: round trips not counted`);
        const tcp = wire.tcpHandshakes ?? 0;
        const expectedDistance = wire.roundTrips * rttUs + tcp * plainSplit.floor.us;
        const local = plainSplit.p50Us - (plainSplit.parts.distance ?? 0);
        const measuredDistance = delayedM.stats.p50Us - local;
        const line =
          `${c.name} ${kind}: p50 plain ${msText(plainM.stats.p50Us)}, delayed ${msText(delayedM.stats.p50Us)}; ` +
          `database ${msText(plainSplit.parts.database ?? NaN)}; turns ${wire.roundTrips} + ${tcp} TCP at ${msText(rttUs)} RTT; ` +
          `distance added ${msText(measuredDistance)} vs ${msText(expectedDistance)}`;
        console.log(line);
        assert.ok(Math.abs(measuredDistance - expectedDistance) <= 0.05 * expectedDistance, line);
        const parts =
          (plainSplit.parts.database ?? 0) +
          (plainSplit.parts.client ?? 0) +
          (plainSplit.parts.rest ?? 0) +
          expectedDistance;
        assert.ok(
          Math.abs(parts - delayedM.stats.p50Us) <= 0.05 * delayedM.stats.p50Us,
          `${line}; parts at the RTT add up to ${msText(parts)}`,
        );
      }
    });
  }
});

describe('a source the server refuses: the run green, one note', () => {
  let aclUser = '';
  const aclPassword = randomBytes(12).toString('hex');
  before(async () => {
    aclUser = `dbprobe_noinfo_${randomBytes(4).toString('hex')}`;
    const redis = new Redis(testbedEnv('DBPROBE_TEST_REDIS_URL'));
    await redis.call('ACL', 'SETUSER', aclUser, 'on', `>${aclPassword}`, '~*', '&*', '+@all', '-info');
    await redis.quit();
  });
  after(async () => {
    const redis = new Redis(testbedEnv('DBPROBE_TEST_REDIS_URL'));
    await redis.call('ACL', 'DELUSER', aclUser);
    await redis.quit();
  });

  test('pg without pg_stat_statements and a write, performance_schema off, no opLatencies, INFO denied', async () => {
    const redisUrl = withUrl(testbedEnv('DBPROBE_TEST_REDIS_URL'), (u) => {
      u.username = aclUser;
      u.password = aclPassword;
    });
    const result = await probeTargets(
      [
        {
          name: 'pg-write',
          driver: 'pg',
          url: testbedEnv('DBPROBE_TEST_PG_URL'),
          query: "SELECT set_config('application_name', 'dbprobe', false)",
        },
        { name: 'mariadb', driver: 'mysql2', url: testbedEnv('DBPROBE_TEST_MYSQL_URL') },
        { name: 'ferretdb', driver: 'mongodb', url: testbedEnv('DBPROBE_TEST_MONGO_URL') },
        { name: 'redis-no-info', driver: 'ioredis', url: redisUrl },
      ],
      { kinds: KINDS, iterations: 5, warmup: 1 },
    );
    assert.equal(result.state, 'completed');
    const expected: Record<string, RegExp> = {
      'pg-write': /pg_stat_statements is not installed, and EXPLAIN ANALYZE .*set_config\(\) changes state/,
      mariadb: /performance_schema is off|STATEMENT_DIGEST/,
      ferretdb: /no opLatencies/,
      'redis-no-info': /could not read the database's own time \(commandstats\): .*(NOPERM|no permissions)/i,
    };
    for (const m of result.measurements) {
      assert.equal(m.failed, false, `${m.target} ${m.kind}: ${describeErrors(m)}`);
      assert.equal(m.stats.errors, 0, `${m.target} ${m.kind}: ${describeErrors(m)}`);
      assert.equal(m.serverTime?.p50Us, undefined, `${m.target} ${m.kind}`);
      assert.match(m.serverTime?.note ?? '', expected[m.target]!, `${m.target} ${m.kind}`);
      console.log(`${m.target} ${m.kind}: ${m.serverTime?.note}`);
    }
  });
});
