/**
 * The catalogue's `edges` rows (test/catalogue/edgeRows.ts), one built-CLI run each: outputs that
 * fail or collide, saved results that are not what they claim, SIGHUP, certificate checks turned off
 * from a connection string (against the testbed's TLS servers), and the smaller answers. Each row
 * checks its exit code, its one line, no stack trace and no process warning (runCli), and, where a
 * report or a file must survive, the figures or bytes it holds.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import {
  createServer as createTcpServer,
  type AddressInfo,
  type Server as TcpServer,
  type Socket,
} from 'node:net';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from 'pg';
import type { RunResult } from '../../src/shared/result';
import { assertRow } from '../catalogue/assertRow';
import { BAD_INPUTS } from '../catalogue/badInputs';
import { configDir, runCli, type CliRun } from '../helpers/cli';
import { tempDir } from '../helpers/tempDir';
import { testbedEnv } from '../helpers/testbed';
import { assertRowsHaveCases } from '../helpers/rowCases';

interface Case {
  /** `run` unless said. */
  command?: string;
  args: (dir: string) => string[];
  /** Merged over the base config (one libSQL file target "lite", one initial sample). */
  config?: Record<string, unknown>;
  env?: () => Record<string, string>;
  /** Progress on stderr (no -q), e.g. to signal the process once the run is under way. */
  loud?: boolean;
  /** Sent `afterMs` after the first stderr line matching `when`. */
  signal?: { name: NodeJS.Signals; when: RegExp; afterMs: number };
  /** What the run must have kept: figures in the report, files left intact. */
  check?: (run: CliRun, dir: string) => void;
}

const results = { dir: '', base: '', head: '', neg: '', text: '', huge: '', failed: '' };
const servers: (Server | TcpServer)[] = [];
const silentSockets: Socket[] = [];
let planetscaleUrl = '';
let silentPort = 0;
let otlpUrl = '';
const LIMITED_ROLE = `dbprobe_edges_limit_${process.pid}`;
const LIMITED_PASSWORD = `edges-${process.pid}-limited`;

const jsonOf = (run: CliRun): RunResult => JSON.parse(run.stdout) as RunResult;
const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const lite = (name = 'lite', extra: Record<string, unknown> = {}) => ({
  name,
  driver: 'libsql',
  connection: 'env:LITE',
  ...extra,
});

/** A load run's report kept its figures: one level of 2 connections that ran queries. */
function assertLoadReport(result: RunResult): void {
  const m = result.measurements.find((x) => x.kind === 'load');
  assert.ok(m, 'the load measurement is in the report');
  const level = m.load?.levels[0];
  assert.equal(level?.level, 2, 'the level asked for');
  assert.ok(m.stats.count > 0, `queries were measured (${m.stats.count})`);
  assert.equal(level.stats.count, m.stats.count, "the level's queries are the kind's");
}

/** The TLS rows: the testbed's TLS server, the bypass added, no CA given. */
function tlsCase(driver: string, url: () => string, extra: Record<string, unknown> = {}): Case {
  return {
    args: (dir) => ['--format', 'json', '--summary', path.join(dir, 'summary.md'), '-n', '2'],
    config: { targets: [{ name: 'tls', driver, connection: 'env:TLS_URL', ...extra }] },
    env: () => ({ TLS_URL: url() }),
    check: (run, dir) => {
      const result = jsonOf(run);
      assert.equal(result.targets[0]?.tls?.insecure, true, 'the JSON marks the target insecure');
      assert.match(result.targets[0]?.tls?.insecureBy ?? '', /^the connection string's /);
      const m = result.measurements.find((x) => x.kind === 'initial');
      if (run.code === 0) assert.equal(m?.stats.count, 2, 'both samples measured');
      const summary = readFileSync(path.join(dir, 'summary.md'), 'utf8');
      assert.match(
        summary,
        /\*\*TLS not verified for tls:\*\* the connection string's /,
        'the Markdown warns',
      );
      assert.match(summary, /\| tls \(TLS not verified\) \|/, "the Markdown's rows say it");
    },
  };
}

const withParam = (envName: string, param: string) => () => {
  const url = new URL(testbedEnv(envName));
  for (const [key, value] of new URLSearchParams(param)) url.searchParams.set(key, value);
  return url.toString();
};

const CASES: Record<string, () => Case> = {
  'edges.raw-disk-full': () => ({
    args: () => [
      '--kinds',
      'load',
      '--concurrency',
      '2',
      '--duration',
      '0.5',
      '--raw',
      '/dev/full',
      '--format',
      'json',
    ],
    check: (run) => assertLoadReport(jsonOf(run)),
  }),
  'edges.raw-disk-full-with-out': () => ({
    args: (dir) => [
      ...['--kinds', 'load', '--concurrency', '2', '--duration', '0.5', '--raw', '/dev/full'],
      ...['--format', 'json', '--out', path.join(dir, 'report.json')],
    ],
    check: (_run, dir) =>
      assertLoadReport(JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as RunResult),
  }),
  'edges.raw-and-out-same-file': () => ({
    args: (dir) => ['--kinds', 'load', '--raw', path.join(dir, 'x'), '--out', path.join(dir, 'x')],
  }),
  'edges.out-and-verdicts-same-file': () => ({
    args: (dir) => {
      mkdirSync(path.join(dir, 'sub'));
      return ['--out', 'x.md', '--verdicts', './sub/../x.md'];
    },
  }),
  'edges.raw-is-the-config': () => {
    let before = '';
    return {
      args: (dir) => {
        before = digest(path.join(dir, 'dbprobe.json'));
        return ['--kinds', 'load', '--raw', 'dbprobe.json'];
      },
      check: (_run, dir) =>
        assert.equal(digest(path.join(dir, 'dbprobe.json')), before, 'the config is intact'),
    };
  },
  'edges.out-is-the-baseline': () => {
    let before = '';
    return {
      args: (dir) => {
        copyFileSync(results.base, path.join(dir, 'base.json'));
        before = digest(path.join(dir, 'base.json'));
        return ['--baseline', 'base.json', '--out', 'base.json'];
      },
      check: (_run, dir) =>
        assert.equal(digest(path.join(dir, 'base.json')), before, 'the baseline is intact'),
    };
  },
  'edges.compare-out-is-base': () => {
    let before = '';
    return {
      command: 'compare',
      args: (dir) => {
        copyFileSync(results.base, path.join(dir, 'base.json'));
        before = digest(path.join(dir, 'base.json'));
        return ['base.json', results.head, '--out', 'base.json'];
      },
      check: (_run, dir) => assert.equal(digest(path.join(dir, 'base.json')), before, 'BASE is intact'),
    };
  },
  'edges.verdicts-disk-full': () => ({
    args: () => ['--threshold', '*:*:errors<1%', '--verdicts', '/dev/full'],
    check: (run) => assert.match(run.stdout, /^# Database latency/, 'the report is on stdout'),
  }),
  'edges.summary-disk-full': () => ({
    args: () => ['--summary', '/dev/full'],
    check: (run) => assert.match(run.stdout, /^# Database latency/, 'the report is on stdout'),
  }),
  'edges.compare-summary-disk-full': () => ({
    command: 'compare',
    args: () => [results.base, results.head, '--summary', '/dev/full'],
    check: (run) => assert.match(run.stdout, /^BASE run /m, 'the comparison is on stdout'),
  }),
  'edges.compare-dev-zero': () => ({ command: 'compare', args: () => ['/dev/zero', results.head] }),
  'edges.compare-negative-latencies': () => ({
    command: 'compare',
    args: () => [results.base, results.neg, '--fail-on-regression', '1%'],
  }),
  'edges.compare-text-latencies': () => ({
    command: 'compare',
    args: () => [results.base, results.text, '--fail-on-regression', '1%'],
  }),
  'edges.compare-huge-latencies': () => ({ command: 'compare', args: () => [results.base, results.huge] }),
  'edges.baseline-negative-latencies': () => ({ args: () => ['--baseline', results.neg] }),
  'edges.sighup-keeps-report': () => ({
    args: (dir) => [
      '--kinds',
      'load',
      '--concurrency',
      '2',
      '--duration',
      '30',
      '--format',
      'json',
      '--out',
      path.join(dir, 'hup.json'),
    ],
    loud: true,
    signal: { name: 'SIGHUP', when: /^probing lite \(load\)/m, afterMs: 1_500 },
    check: (_run, dir) => {
      const result = JSON.parse(readFileSync(path.join(dir, 'hup.json'), 'utf8')) as RunResult;
      assert.equal(result.state, 'cancelled', 'the partial report says it was cut');
      assertLoadReport(result);
    },
  }),
  'edges.cold-other-target-unset': () => ({
    args: () => ['--targets', 'lite', '--kinds', 'cold', '--format', 'json'],
    config: {
      targets: [lite('lite', { cold: { mode: 'command', command: ['true'] } }), lite('other')],
      cold: { samples: 1, pauseMs: 0 },
    },
    check: (run) => {
      const result = jsonOf(run);
      assert.deepEqual(
        result.targets.map((t) => t.name),
        ['lite'],
      );
      assert.equal(result.measurements.find((m) => m.kind === 'cold')?.stats.count, 1, 'one cold sample');
    },
  }),
  'edges.tls-pg-no-verify': () => tlsCase('pg', withParam('DBPROBE_TEST_PG_TLS_URL', 'sslmode=no-verify')),
  'edges.tls-pg-libpq-require': () =>
    tlsCase('pg', withParam('DBPROBE_TEST_PG_TLS_URL', 'sslmode=require&uselibpqcompat=true')),
  'edges.tls-mysql2-reject-unauthorized': () =>
    tlsCase('mysql2', withParam('DBPROBE_TEST_MYSQL_URL', 'ssl={"rejectUnauthorized":false}')),
  'edges.tls-mongodb-allow-invalid-certificates': () =>
    tlsCase('mongodb', withParam('DBPROBE_TEST_MONGO_TLS_URL', 'tlsAllowInvalidCertificates=true')),
  'edges.tls-mongodb-tls-insecure': () =>
    tlsCase('mongodb', withParam('DBPROBE_TEST_MONGO_TLS_URL', 'tlsInsecure=true')),
  'edges.tls-mongodb-allow-invalid-hostnames': () => {
    const base = tlsCase('mongodb', withParam('DBPROBE_TEST_MONGO_TLS_URL', 'tlsAllowInvalidHostnames=true'));
    return {
      ...base,
      // Each sample fails its handshake: no need to wait out the default 10 s connect twice.
      config: { ...base.config, timeouts: { connectMs: 2_000 } },
      check: (run, dir) => {
        base.check?.(run, dir);
        // The certificate itself is still checked: the self-signed one is refused.
        assert.deepEqual(jsonOf(run).measurements[0]?.errorsByClass, { tls: 2 });
      },
    };
  },
  'edges.tls-no-verify-with-ca-file': () => ({
    args: () => [],
    config: {
      targets: [
        {
          name: 'tls',
          driver: 'pg',
          connection: 'env:TLS_URL',
          tls: { caFile: testbedEnv('DBPROBE_TEST_CA_FILE') },
        },
      ],
    },
    env: () => ({ TLS_URL: withParam('DBPROBE_TEST_PG_TLS_URL', 'sslmode=no-verify')() }),
  }),
  'edges.threshold-p99-at-most-zero': () => ({ args: () => ['--threshold', '*:*:p99<=0ms'] }),
  'edges.raw-without-load': () => ({ args: () => ['--raw', 'r.ndjson'] }),
  'edges.rtt-with-json': () => ({ args: () => ['--rtt', '1,10', '--format', 'json'] }),
  'edges.repeated-out': () => ({ args: () => ['--out', 'a.md', '--out', 'b.md'] }),
  'edges.repeated-threads': () => ({ args: () => ['--kinds', 'load', '--threads', '1', '--threads', '2'] }),
  'edges.negative-iterations': () => ({ args: () => ['--iterations', '-5'] }),
  'edges.negative-duration': () => ({ args: () => ['--kinds', 'load', '--duration', '-1'] }),
  'edges.flag-error-named-as-flag': () => ({ args: () => ['--iterations', '0'] }),
  'edges.watch-ipv6-url': () => ({
    command: 'watch',
    args: () => ['--host', '::1', '--port', '0', '--every', '1s', '--runs', '1'],
    env: () => ({ DBPROBE_WATCH_TOKEN: 'edges-watch-token-0123456789abcdef' }),
    loud: true,
  }),
  'edges.pg-too-many-clients': () => ({
    args: () => [],
    config: { targets: [{ name: 'pg limit', driver: 'pg', connection: 'env:PG_LIMIT' }] },
    env: () => {
      const url = new URL(testbedEnv('DBPROBE_TEST_PG_URL'));
      url.username = LIMITED_ROLE;
      url.password = LIMITED_PASSWORD;
      return { PG_LIMIT: url.toString() };
    },
  }),
  'edges.planetscale-error-without-message': () => ({
    args: () => [],
    config: { targets: [{ name: 'ps', driver: 'planetscale', connection: 'env:PS_URL' }] },
    env: () => ({ PS_URL: planetscaleUrl }),
  }),
  'edges.compare-failed-in-head': () => ({
    command: 'compare',
    args: () => [results.base, results.failed],
    check: (run) =>
      assert.match(
        run.stdout,
        /^lite initial: every sample failed in HEAD/m,
        'the verdict lines say it first',
      ),
  }),
  'edges.compare-failed-in-base': () => ({
    command: 'compare',
    args: () => [results.failed, results.base],
  }),
  'edges.otlp-load-only': () => ({
    args: () => ['--kinds', 'load', '--duration', '0.2', '--otlp', otlpUrl],
  }),
  'edges.otlp-env-load-only': () => ({
    args: () => ['--kinds', 'load', '--duration', '0.2', '--concurrency', '1'],
    env: () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl }),
  }),
  'edges.runner-url-is-a-secret': () => ({
    args: () => ['--runner', 'http://127.0.0.1:9/'],
    config: { targets: [lite(), { name: 'pg', driver: 'pg', connection: 'env:RUNNER_URL' }] },
    env: () => ({ RUNNER_URL: 'http://127.0.0.1:9/', DBPROBE_TOKEN: 'edges-runner-token-0123456789abcdef' }),
  }),
  'edges.port-silent-protocol': () => ({
    args: () => [],
    config: {
      targets: [{ name: 'silent', driver: 'pg', connection: 'env:SILENT_URL' }],
      timeouts: { connectMs: 1_000 },
    },
    env: () => ({ SILENT_URL: `postgres://u:p@127.0.0.1:${silentPort}/db` }),
  }),
  'edges.nothing-measured-no-figures': () => ({
    args: () => ['--kinds', 'load', '--duration', '0.000001', '--concurrency', '1'],
    loud: true,
    check: (run) => assert.doesNotMatch(run.stderr, /p50 0\.000 ms, p99 0\.000 ms, n=0/),
  }),
};

const ROWS = BAD_INPUTS.filter((r) => r.area === 'edges');

/** Runs the CLI and sends the case's signal once its stderr shows the run under way. */
async function runCase(c: Case, cwd: string, env: Record<string, string>): Promise<CliRun> {
  let pid = 0;
  let sent = false;
  let timer: NodeJS.Timeout | undefined;
  let seen = '';
  const command = c.command ?? 'run';
  const quiet = command === 'run' && !c.loud ? ['-q'] : [];
  const run = await runCli([command, ...quiet, ...c.args(cwd)], {
    cwd,
    env,
    timeoutMs: 60_000,
    onSpawn: (p) => (pid = p),
    onStderr: (chunk) => {
      seen += chunk;
      if (!c.signal || sent || !c.signal.when.test(seen)) return;
      sent = true;
      const { name, afterMs } = c.signal;
      timer = setTimeout(() => process.kill(pid, name), afterMs);
    },
  });
  clearTimeout(timer);
  if (c.signal) assert.ok(sent, `the run got under way and was sent ${c.signal.name}:\n${run.stderr}`);
  return run;
}

before(async () => {
  // Saved results for compare and --baseline: a real run, then copies edited by hand.
  results.dir = tempDir('edges-results');
  const cwd = configDir({ targets: [lite()], kinds: ['initial'], iterations: 30, warmup: 0 });
  results.base = path.join(results.dir, 'base.json');
  const saved = await runCli(['run', '-q', '--format', 'json', '--out', results.base], {
    cwd,
    env: { LITE: `file:${path.join(cwd, 'lite.db')}` },
  });
  assert.equal(saved.code, 0, saved.stderr);
  const base = readFileSync(results.base, 'utf8');
  const edited = (name: string, us: (value: number) => unknown) => {
    const result = JSON.parse(base) as { measurements: { samples: { values: { us?: unknown }[] } }[] };
    for (const sample of result.measurements[0]!.samples.values)
      if (typeof sample.us === 'number') sample.us = us(sample.us);
    const file = path.join(results.dir, name);
    writeFileSync(file, JSON.stringify(result));
    return file;
  };
  results.failed = path.join(results.dir, 'failed.json');
  const failed = await runCli(['run', '-q', '--format', 'json', '--out', results.failed], {
    cwd,
    env: { LITE: `file:${path.join(cwd, 'no-such-folder', 'lite.db')}` },
  });
  assert.equal(failed.code, 1, failed.stderr);
  results.head = edited('head.json', (us) => us);
  results.neg = edited('neg.json', (us) => -Math.max(1, us));
  results.text = edited('text.json', () => 'abc');
  results.huge = edited('huge.json', () => 1e308);

  // A PlanetScale endpoint that fails without a message.
  const server = createServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end('{"error":{}}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  planetscaleUrl = `http://user:pass@127.0.0.1:${(server.address() as AddressInfo).port}`;

  // An OTLP receiver that takes everything.
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  servers.push(receiver);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  otlpUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  // A port that accepts TCP and never writes a byte.
  const silent = createTcpServer((socket) => silentSockets.push(socket));
  servers.push(silent);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as AddressInfo).port;

  // A role PostgreSQL turns away for its connection limit (SQLSTATE 53300).
  const admin = new Client({ connectionString: testbedEnv('DBPROBE_TEST_PG_ADMIN_URL') });
  await admin.connect();
  try {
    await admin.query(`DROP ROLE IF EXISTS ${LIMITED_ROLE}`);
    await admin.query(`CREATE ROLE ${LIMITED_ROLE} LOGIN PASSWORD '${LIMITED_PASSWORD}' CONNECTION LIMIT 0`);
  } finally {
    await admin.end();
  }
});

after(async () => {
  for (const socket of silentSockets) socket.destroy();
  for (const server of servers) server.close();
  const admin = new Client({ connectionString: testbedEnv('DBPROBE_TEST_PG_ADMIN_URL') });
  await admin.connect();
  try {
    await admin.query(`DROP ROLE IF EXISTS ${LIMITED_ROLE}`);
  } finally {
    await admin.end();
  }
});

test('the edges table: one set-up per row, one row per set-up', () => {
  assert.ok(ROWS.length >= 30, `${ROWS.length} rows`);
  assertRowsHaveCases(ROWS, CASES);
});

describe('edges rows', () => {
  for (const row of ROWS) {
    test(row.id, async () => {
      const make = CASES[row.id];
      assert.ok(make, `a set-up for ${row.id}`);
      const c = make();
      const cwd = configDir({ targets: [lite()], kinds: ['initial'], iterations: 1, warmup: 0, ...c.config });
      const run = await runCase(c, cwd, { LITE: `file:${path.join(cwd, 'lite.db')}`, ...c.env?.() });
      const lines = run.stderr
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      assertRow(row, run, lines);
      c.check?.(run, cwd);
    });
  }
});
