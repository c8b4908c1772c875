/**
 * ORM layers over the testbed: each layer over each driver it supports here measures `initial` and
 * `subsequent` through the layer beside the raw driver, in one interleaved run; the overhead the
 * judgement states is that run's own samples' (warm: the median of the rounds' differences on the
 * shared connection; new connection: layer p50 - raw p50); and through toxiproxy with a
 * known delay per turn, the round trips counted through the layer equal the count derived from the
 * delay (as wire-round-trips.test.ts derives it: p50 of slow - plain, paired, / D).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runSummaryLines } from '../../src/cli/stderrSummary';
import { packageSourceFor } from '../../src/drivers/packageSource';
import { formatMarkdown } from '../../src/report/markdown';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { layerInfo, layeredName, type OrmLayer } from '../../src/shared/layerCatalog';
import type { ProbeKind } from '../../src/shared/plan';
import type { Measurement, RunResult } from '../../src/shared/result';
import { startHranaStandIn, type HranaStandIn } from '../fixtures/hranaStandIn';
import { startNeonHttpStandIn, type NeonHttpStandIn } from '../fixtures/neonHttpStandIn';
import { describeErrors, probeTargets, type ProbeTarget } from '../fixtures/probe';
import { createToxiProxy, type ToxiProxy } from '../fixtures/toxiproxy';
import { assertTurns, derivedTurns, probeUntilTurnsDecided } from '../helpers/delayTurns';
import { tempDir } from '../helpers/tempDir';
import { testbedEnv, withUrl } from '../helpers/testbed';

/**
 * The project the layers load from: the repository, whose node_modules holds them as an app's
 * would (the layers are never bundled).
 */
const PROJECT = { projectDirs: [path.resolve(__dirname, '../..')], projectLabel: 'your project' };
const projectVersion = (layer: OrmLayer) => packageSourceFor(layerInfo(layer).packageName, PROJECT)?.version;

const TOKEN = `orm-${randomBytes(12).toString('hex')}`;
/** Enough successful samples a side for the judgement's interval (MIN_COMPARED_SAMPLES is 10). */
const ITERATIONS = 12;
/** A turn's delay: see wire-round-trips.test.ts for why 50 ms. */
const DELAY_MS = 50;
/**
 * Prisma starts a client per new connection (its query compiler instantiated, the client's set-up)
 * for tens of ms of CPU that a loaded host stretches by a turn's worth at 50 ms: prisma over
 * planetscale derived 2 turns for its 1 twice in a row at load average 24, where a lone probe read one
 * turn. Its turns cost more, as neon-ws's do in wire-round-trips.test.ts.
 */
const PRISMA_DELAY_MS = 200;

let neonHttp: NeonHttpStandIn;
let hrana: HranaStandIn;

interface LayerCase {
  layer: OrmLayer;
  driver: string;
  /** The target with its server at 127.0.0.1:port (a proxy), or at its own port when absent. */
  target: (port?: number) => Omit<ProbeTarget, 'name'>;
  /** host:port of the server, for toxiproxy. */
  upstream: () => string;
}

const hostPort = (url: string) => `${new URL(url).hostname}:${new URL(url).port}`;
const viaPort = (envName: string, port?: number) =>
  port === undefined ? testbedEnv(envName) : withUrl(testbedEnv(envName), (u) => (u.port = String(port)));

const pg = (layer: OrmLayer): LayerCase => ({
  layer,
  driver: 'pg',
  target: (port) => ({ driver: 'pg', url: viaPort('DBPROBE_TEST_PG_URL', port) }),
  upstream: () => hostPort(testbedEnv('DBPROBE_TEST_PG_URL')),
});
const mysql2 = (layer: OrmLayer): LayerCase => ({
  layer,
  driver: 'mysql2',
  target: (port) => ({ driver: 'mysql2', url: viaPort('DBPROBE_TEST_MYSQL_URL', port) }),
  upstream: () => hostPort(testbedEnv('DBPROBE_TEST_MYSQL_URL')),
});

const planetscale = (layer: OrmLayer): LayerCase => ({
  layer,
  driver: 'planetscale',
  target: (port) => ({ driver: 'planetscale', url: viaPort('DBPROBE_TEST_PS_URL', port) }),
  upstream: () => hostPort(testbedEnv('DBPROBE_TEST_PS_URL')),
});
const libsql = (layer: OrmLayer): LayerCase => ({
  layer,
  driver: 'libsql',
  target: (port) => ({ driver: 'libsql', url: `http://127.0.0.1:${port ?? hrana.port}?authToken=${TOKEN}` }),
  upstream: () => `127.0.0.1:${hrana.port}`,
});

const CASES: LayerCase[] = [
  pg('drizzle'),
  pg('kysely'),
  pg('prisma'),
  mysql2('drizzle'),
  mysql2('kysely'),
  planetscale('drizzle'),
  planetscale('prisma'),
  libsql('drizzle'),
  libsql('prisma'),
  {
    layer: 'drizzle',
    driver: 'neon-http',
    target: (port) => ({
      driver: 'neon-http',
      url: testbedEnv('DBPROBE_TEST_PG_URL'),
      options: { fetchEndpoint: `http://127.0.0.1:${port ?? neonHttp.port}/sql` },
    }),
    upstream: () => `127.0.0.1:${neonHttp.port}`,
  },
];

/**
 * Measured here but left out of the delay check: neon-ws's client-side SCRAM costs hundreds of ms of
 * CPU per connect, which wire-round-trips.test.ts checks on its own with its own allowances.
 */
const MEASURED_ONLY: LayerCase[] = [
  {
    layer: 'drizzle',
    driver: 'neon-ws',
    target: () => ({
      driver: 'neon-ws',
      url: testbedEnv('DBPROBE_TEST_PG_URL'),
      options: {
        wsProxy: `127.0.0.1:${testbedEnv('DBPROBE_TEST_WEBSOCKIFY_PORT')}/v1`,
        useSecureWebSocket: false,
        pipelineConnect: false,
      },
    }),
    upstream: () => `127.0.0.1:${testbedEnv('DBPROBE_TEST_WEBSOCKIFY_PORT')}`,
  },
];

before(async () => {
  [neonHttp, hrana] = await Promise.all([
    startNeonHttpStandIn(),
    startHranaStandIn({ file: path.join(tempDir('orm-hrana'), 'layers.db'), token: TOKEN }),
  ]);
});

after(async () => {
  await Promise.all([neonHttp?.close(), hrana?.close()]);
});

const found = (result: RunResult, target: string, kind: ProbeKind): Measurement => {
  const m = result.measurements.find((x) => x.target === target && x.kind === kind);
  assert.ok(m, `no ${kind} measurement for ${target}`);
  assert.equal(m.stats.errors, 0, `${target} ${kind}: ${describeErrors(m)}`);
  return m;
};

/**
 * The layer's figure, computed here, not by the code under test: on a warm connection the layer's
 * twin shares (samples carry `conn`), the median by nearest rank of the rounds' differences (the
 * k-th sample of each is one round; a round where either failed is dropped); otherwise layer p50 -
 * raw p50.
 */
function expectedOverhead(raw: Measurement, layer: Measurement): number {
  const paired = [raw, layer].every((m) => m.samples.values.some((s) => s.conn !== undefined));
  if (!paired) return exactP50(layer) - exactP50(raw);
  const differences: number[] = [];
  for (let k = 0; k < Math.min(raw.samples.values.length, layer.samples.values.length); k++) {
    const a = raw.samples.values[k]!.us;
    const b = layer.samples.values[k]!.us;
    if (a !== undefined && b !== undefined) differences.push(b - a);
  }
  differences.sort((x, y) => x - y);
  return differences[Math.max(1, Math.ceil(differences.length / 2)) - 1]!;
}

/** p50 by nearest rank over the kept successful samples, computed here, not by the code under test. */
function exactP50(m: Measurement): number {
  const sorted = m.samples.values.flatMap((s) => (s.us === undefined ? [] : [s.us])).sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(sorted.length / 2)) - 1]!;
}

const label = (c: LayerCase) => `${c.layer} over ${c.driver}`;

describe('each layer measures initial and subsequent beside its raw driver', () => {
  let result: RunResult;
  before(async () => {
    result = await probeTargets(
      [...CASES, ...MEASURED_ONLY].map((c) => ({ name: label(c), orm: c.layer, ...c.target() })),
      {
        kinds: ['initial', 'subsequent'],
        iterations: ITERATIONS,
        warmup: 1,
        order: 'interleaved',
        packages: PROJECT,
      },
    );
  });

  for (const c of [...CASES, ...MEASURED_ONLY]) {
    test(`${label(c)}: both kinds measured, the layer named with its version, the overhead its samples give`, () => {
      const raw = label(c);
      const layered = layeredName(raw, c.layer);
      const info = result.targets.find((t) => t.name === layered);
      assert.deepEqual(info?.layer, {
        name: c.layer,
        package: layerInfo(c.layer).packageName,
        version: projectVersion(c.layer),
        from: 'your project',
        query: 'raw',
        over: raw,
      });
      assert.equal(result.targets.find((t) => t.name === raw)?.layer, undefined, 'the raw twin has no layer');
      const overheads = judgeRun(result).layers.filter((l) => l.target === layered);
      for (const kind of ['initial', 'subsequent'] as const) {
        const rawM = found(result, raw, kind);
        const layerM = found(result, layered, kind);
        assert.equal(layerM.stats.count, ITERATIONS);
        const overhead = overheads.find((o) => o.kind === kind);
        assert.ok(overhead, `no ${kind} overhead for ${layered}`);
        const expected = expectedOverhead(rawM, layerM);
        const text = `${layered} ${kind}: overhead ${overhead.overheadUs} µs (${overhead.lowUs}..${overhead.highUs}), layer p50 ${exactP50(layerM)}, raw p50 ${exactP50(rawM)}, expected ${expected}; ${overhead.sentence}`;
        console.log(text);
        assert.equal(overhead.overheadUs, expected, text);
        assert.ok(overhead.lowUs <= overhead.overheadUs && overhead.overheadUs <= overhead.highUs, text);
        assert.ok(judgeRun(result).lines.includes(overhead.sentence), 'the sentence is a verdict line');
        assert.ok(formatMarkdown(result).includes(`- ${overhead.sentence}`), 'the Markdown states it');
        assert.ok(runSummaryLines(result).includes(overhead.sentence), "the CLI's summary states it");
      }
    });
  }
});

describe('round trips counted through a layer = derived from an injected delay', { concurrency: 3 }, () => {
  for (const c of CASES) {
    test(label(c), async () => {
      const api = testbedEnv('DBPROBE_TEST_TOXIPROXY_URL');
      const name = `${c.layer}_${c.driver}`.replace(/\W/g, '_');
      const delayMs = c.layer === 'prisma' ? PRISMA_DELAY_MS : DELAY_MS;
      const proxies: ToxiProxy[] = [];
      try {
        const plain = await createToxiProxy(api, c.upstream(), `${name}_orm_plain`);
        proxies.push(plain);
        const slow = await createToxiProxy(api, c.upstream(), `${name}_orm_slow`);
        proxies.push(slow);
        await slow.addToxic('latency', { latency: delayMs, jitter: 0 }, 'downstream');
        const layered = (result: RunResult, kind: ProbeKind): [Measurement, Measurement] => [
          found(result, layeredName('slow', c.layer), kind),
          found(result, layeredName('plain', c.layer), kind),
        ];
        const result = await probeUntilTurnsDecided(
          (iterations) =>
            probeTargets(
              [
                { name: 'plain', orm: c.layer, ...c.target(plain.port) },
                { name: 'slow', orm: c.layer, ...c.target(slow.port) },
              ],
              {
                kinds: ['initial', 'subsequent'],
                iterations,
                warmup: 1,
                order: 'interleaved',
                packages: PROJECT,
              },
            ),
          (r) => [layered(r, 'initial'), layered(r, 'subsequent')],
          delayMs,
          label(c),
        );
        for (const kind of ['initial', 'subsequent'] as const) {
          const [slowM, plainM] = layered(result, kind);
          const rawM = found(result, 'slow', kind);
          const d = derivedTurns(slowM, plainM, delayMs);
          const text = `${label(c)} ${kind}: counted through the layer ${slowM.wire?.roundTrips} (plain proxy ${plainM.wire?.roundTrips}; raw ${rawM.wire?.roundTrips}), ${d.text}`;
          console.log(text);
          assertTurns(slowM.wire?.roundTrips, d, text);
          assertTurns(plainM.wire?.roundTrips, d, text);
        }
      } finally {
        await Promise.all(proxies.map((p) => p.remove()));
      }
    });
  }
});

/** The SQL each layer's typed query sends over pg, as its query builder writes it. */
const TYPED_SQL: Partial<Record<OrmLayer, string>> = {
  drizzle: 'select 1 from (select 1) as probe',
  kysely: 'select 1 as "one"',
};

/** Bytes the client sent on a warm query, one figure for all the measurement's samples. */
function warmBytesSent(m: Measurement): number {
  const sent = new Set(m.samples.values.map((s) => s.wire?.bytesSent));
  assert.equal(sent.size, 1, `${m.target}: one figure for every warm query, got ${[...sent].join(', ')}`);
  const [bytes] = sent;
  assert.ok(typeof bytes === 'number', `${m.target}: bytes sent counted`);
  return bytes;
}

describe('the typed query of each layer over pg, beside the raw driver', () => {
  const TYPED: OrmLayer[] = ['drizzle', 'kysely'];
  let result: RunResult;
  before(async () => {
    result = await probeTargets(
      [
        ...[...TYPED, 'prisma' as const].map((layer) => ({
          name: `typed ${layer}`,
          orm: layer,
          ormQuery: 'typed' as const,
          ...pg(layer).target(),
        })),
        // The same layers' raw-SQL path, for what the typed query sends instead.
        ...TYPED.map((layer) => ({ name: `raw ${layer}`, orm: layer, ...pg(layer).target() })),
      ],
      {
        kinds: ['initial', 'subsequent'],
        iterations: ITERATIONS,
        warmup: 1,
        order: 'interleaved',
        packages: PROJECT,
      },
    );
  });

  for (const layer of TYPED) {
    test(`${layer}: the typed query is measured, recorded, named in the verdict and the table`, () => {
      const raw = `typed ${layer}`;
      const layered = layeredName(raw, layer);
      const info = result.targets.find((t) => t.name === layered);
      assert.equal(info?.layer?.query, 'typed');
      const version = projectVersion(layer);
      assert.ok(version);
      const overheads = judgeRun(result).layers.filter((l) => l.target === layered);
      for (const kind of ['initial', 'subsequent'] as const) {
        const rawM = found(result, raw, kind);
        const layerM = found(result, layered, kind);
        assert.equal(layerM.stats.count, ITERATIONS);
        const overhead = overheads.find((o) => o.kind === kind);
        assert.ok(overhead, `no ${kind} overhead for ${layered}`);
        console.log(`${layered} ${kind}: ${overhead.sentence}`);
        assert.equal(overhead.overheadUs, expectedOverhead(rawM, layerM));
        assert.ok(
          overhead.sentence.startsWith(
            `ORM layer ${layerInfo(layer).packageName} ${version} from your project (typed query) `,
          ),
          overhead.sentence,
        );
      }
      // The builder's statement went over the wire in place of the workload: the same protocol
      // messages, longer by the difference between its SQL and SELECT 1.
      const typedSql = TYPED_SQL[layer] ?? '';
      assert.equal(
        warmBytesSent(found(result, layered, 'subsequent')) -
          warmBytesSent(found(result, layeredName(`raw ${layer}`, layer), 'subsequent')),
        Buffer.byteLength(typedSql) - Buffer.byteLength('SELECT 1'),
        `${layer} sends ${typedSql}`,
      );
      const markdown = formatMarkdown(result);
      assert.ok(
        markdown.includes(`| ${layered} | pg · ${layer} ${version} (typed) |`),
        'the driver column names it',
      );
      assert.ok(markdown.includes(`| ${raw} | pg |`), 'the raw twin is the driver alone');
    });
  }

  test('prisma: no typed query without an app schema, said as a config error', () => {
    const m = result.measurements.find((x) => x.target === layeredName('typed prisma', 'prisma'));
    assert.ok(m);
    assert.equal(m.stats.count, 0);
    assert.match(JSON.stringify(m.firstErrors), /prisma has no typed query here/);
  });
});
