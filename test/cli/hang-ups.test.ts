/**
 * The catalogue's `hang-ups` rows (test/catalogue/hangUpRows.ts), one built-CLI run each. Each row
 * checks its exit code, its one line, no stack trace and no process warning, and, where a report
 * must survive, what it holds.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Client } from 'pg';
import type { RunResult } from '../../src/shared/result';
import { assertRow } from '../catalogue/assertRow';
import { BAD_INPUTS } from '../catalogue/badInputs';
import { CLI, configDir, runCli, type CliRun } from '../helpers/cli';
import { testbedEnv } from '../helpers/testbed';
import { runCliOnClosingTerminal } from '../helpers/closingTerminal';
import { assertRowsHaveCases } from '../helpers/rowCases';

interface Case {
  /** `run` unless said. */
  command?: string;
  args: (dir: string) => string[];
  /** Merged over the base config (one libSQL file target "lite", one initial sample). */
  config?: Record<string, unknown>;
  env?: () => Record<string, string>;
  /** Progress on stderr (no -q). */
  loud?: boolean;
  /** stdin and stdout on a terminal that closes once stderr matches this. */
  hangUpWhen?: RegExp;
  /**
   * Sent `afterMs` after the first stderr line matching `when`, or, for `receiver`, as soon as the
   * silent OTLP receiver gets its first connection (the export has begun).
   */
  signal?: { name: NodeJS.Signals; when: RegExp | 'receiver'; afterMs: number };
  check?: (run: CliRun, dir: string) => void;
  /** Awaited after the checks: what a helper process (a pipe's reader) saw. */
  after?: () => Promise<void>;
}

const CASES: Record<string, () => Case> = {
  'hang-ups.terminal-closed': () => ({
    args: () => ['--kinds', 'subsequent', '--iterations', '1000000', '--format', 'json'],
    loud: true,
    hangUpWhen: /^probing lite \(subsequent\)/m,
    check: (run) => {
      const file = /wrote it to (\S+) instead/.exec(run.stderr)?.[1];
      assert.ok(file, run.stderr);
      const result = JSON.parse(readFileSync(file, 'utf8')) as RunResult;
      rmSync(file);
      assert.equal(result.state, 'cancelled', 'the report says the run was cut');
      assert.ok((result.measurements[0]?.stats.count ?? 0) > 0, 'it holds what was measured');
    },
  }),
  'hang-ups.low-rate-level-finished': () => ({
    args: () => [...LOAD, '--rate', '3', '--duration', '1'],
    check: (run) => {
      assert.match(run.stdout, /^- lite kept up at 3\/s, up to 3 queries\/s\.$/m);
      assert.doesNotMatch(run.stdout, /stopped inside|cut after|not judged/);
    },
  }),
  'hang-ups.cancel-cut-level': () => ({
    args: () => [...LOAD, '--rate', '200', '--duration', '30'],
    loud: true,
    signal: { name: 'SIGINT', when: /^probing lite \(load\)/m, afterMs: 1_500 },
    check: (run) => {
      const headline = /^- lite.*$/m.exec(run.stdout)?.[0] ?? '';
      assert.match(headline, /not judged/, run.stdout);
      assert.doesNotMatch(headline, /kept up/, 'the headline never says "kept up" of a cut level');
      assert.match(run.stdout, /not judged: cut after [\d.]+ s of 30 s/, "the table's kept-up column agrees");
    },
  }),
  'hang-ups.out-fifo-no-reader': () => ({
    args: (dir) => {
      execFileSync('mkfifo', [path.join(dir, 'pipe')]);
      return ['--out', 'pipe'];
    },
  }),
  'hang-ups.out-fifo-with-reader': () => {
    let reader = -1;
    return {
      args: (dir) => {
        execFileSync('mkfifo', [path.join(dir, 'pipe')]);
        // The test reads the pipe itself: opened without waiting, it is a reader from here on, and
        // the report (a few kB) fits the pipe's buffer until the run ends.
        reader = openSync(path.join(dir, 'pipe'), constants.O_RDONLY | constants.O_NONBLOCK);
        return ['--out', 'pipe'];
      },
      check: () => {
        const text = readAll(reader);
        closeSync(reader);
        assert.match(text, /^# Database latency[\s\S]*Measured by dbprobe/, 'the reader got the report');
      },
    };
  },
  'hang-ups.out-dash': () => ({
    args: () => ['--out', '-'],
    check: (run, dir) => {
      assert.match(run.stdout, /^# Database latency/, 'the report is on stdout');
      assert.equal(existsSync(path.join(dir, '-')), false, 'no file named "-"');
    },
  }),
  'hang-ups.out-new-folder-slash': () => ({ args: () => ['--out', 'newdir/'] }),
  'hang-ups.threshold-orm-twin': () => ({
    args: (dir) => {
      // The layer runs the project's own drizzle-orm: this folder's project gets the repository's.
      mkdirSync(path.join(dir, 'node_modules'));
      symlinkSync(path.join(ROOT, 'node_modules/drizzle-orm'), path.join(dir, 'node_modules/drizzle-orm'));
      return ['--kinds', 'subsequent', '-n', '5', '--threshold', 'lite · drizzle:subsequent:p50<1s'];
    },
    config: { targets: [{ name: 'lite', driver: 'libsql', connection: 'env:LITE', orm: 'drizzle' }] },
  }),
  'hang-ups.threshold-below-resolution': () => ({ args: () => ['--threshold', '*:*:p99<0.0001us'] }),
  'hang-ups.max-latency-below-resolution': () => ({
    args: () => [...LOAD, '--max-latency', '0.0001ms'],
  }),
  'hang-ups.app-rtt-load-only': () => ({
    args: () => [...LOAD, '--duration', '0.2', '--app-rtt', '10'],
  }),
  'hang-ups.app-rtt-embedded': () => ({ args: () => ['-n', '5', '--app-rtt', '10'] }),
  'hang-ups.schedule-mostly-dropped': () => ({
    args: () => ['--kinds', 'schedule', '--rate', '100000', '--duration', '1', '--queries', '2'],
  }),
  'hang-ups.signal-during-otlp-export': () => ({
    args: () => ['--out', 'r.md', '--otlp', receiver.url],
    env: () => ({ OTEL_EXPORTER_OTLP_TIMEOUT: '60000' }),
    signal: { name: 'SIGTERM', when: 'receiver', afterMs: 0 },
    check: (_run, dir) => {
      assert.match(readFileSync(path.join(dir, 'r.md'), 'utf8'), /^# Database latency/, 'the report');
      // One second after the signal, plus a sanity margin far above any host's noise.
      assert.ok(timing.signalToEndMs < 5_000, `ended ${timing.signalToEndMs} ms after the signal`);
    },
  }),
  'hang-ups.watch-otlp-slow-receiver': () => ({
    command: 'watch',
    args: () => ['--port', '0', '--every', '1s', '--runs', '3', '--otlp', receiver.url],
    env: () => ({
      OTEL_EXPORTER_OTLP_TIMEOUT: '4000',
      DBPROBE_WATCH_TOKEN: 'hang-ups-watch-token-0123456789abcdef',
    }),
    check: () => {
      const first = timing.lines.find((l) => /^dbprobe watch: run 1 in/.test(l.text))?.atMs;
      const third = timing.lines.find((l) => /^dbprobe watch: run 3 in/.test(l.text))?.atMs;
      assert.ok(first !== undefined && third !== undefined, 'three runs');
      // Two ticks of 1 s apart (a busy host may add some); an export that held each run back made it 8 s and more.
      assert.ok(third - first < 6_000, `run 3 came ${third - first} ms after run 1`);
    },
  }),
  'hang-ups.tls-csv': () => ({
    args: () => ['--format', 'csv', '-n', '2'],
    config: { targets: [{ name: 'tls', driver: 'pg', connection: 'env:TLS_URL' }] },
    env: () => ({ TLS_URL: pgTls('sslmode=no-verify') }),
    check: (run) => {
      const [header, ...rows] = run.stdout.trim().split('\n');
      assert.match(header ?? '', /,tls_not_verified$/);
      assert.ok(rows.length >= 2, run.stdout);
      for (const row of rows)
        assert.match(row, /,the connection string's sslmode=no-verify \(no certificate check\)$/);
    },
  }),
  'hang-ups.tls-watch': () => ({
    command: 'watch',
    args: () => ['--port', '0', '--every', '1s', '--runs', '1'],
    config: { targets: [{ name: 'tls', driver: 'pg', connection: 'env:TLS_URL' }], kinds: ['subsequent'] },
    env: () => ({
      TLS_URL: pgTls('sslmode=no-verify'),
      DBPROBE_WATCH_TOKEN: 'hang-ups-watch-token-0123456789abcdef',
    }),
  }),
  'hang-ups.tls-compare-differs': () => ({
    command: 'compare',
    args: (dir) => {
      const run = saveRun(dir, 'base.json');
      const head = JSON.parse(run) as RunResult;
      head.targets[0]!.tls = {
        insecure: true,
        insecureBy: "the connection string's sslmode=no-verify (no certificate check)",
      };
      writeFileSync(path.join(dir, 'head.json'), JSON.stringify(head));
      return ['base.json', 'head.json'];
    },
    check: (run) =>
      assert.match(
        run.stdout,
        /^> \*\*TLS not verified for lite in HEAD only:\*\*/,
        'the comparison says it first',
      ),
  }),
  'hang-ups.tls-libpq-verify-ca-with-ca-file': () => ({
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
    env: () => ({ TLS_URL: pgTls('sslmode=verify-ca&uselibpqcompat=true') }),
  }),
  'hang-ups.layer-missing': () => ({ args: () => [], config: DRIZZLE }),
  'hang-ups.layer-unsupported-version': () => ({
    args: (dir) => {
      // An old release as the project holds it: its manifest is what the check reads.
      const pkg = path.join(dir, 'node_modules/drizzle-orm');
      mkdirSync(pkg, { recursive: true });
      writeFileSync(
        path.join(pkg, 'package.json'),
        '{"name":"drizzle-orm","version":"0.28.6","main":"index.js"}',
      );
      writeFileSync(path.join(pkg, 'index.js'), 'module.exports = {};\n');
      return [];
    },
    config: DRIZZLE,
  }),
  'hang-ups.layer-on-runner': () => ({
    args: () => ['--runner', 'http://127.0.0.1:9'],
    config: DRIZZLE,
    env: () => ({ DBPROBE_TOKEN: 'hang-ups-runner-token' }),
  }),
  'hang-ups.driver-unsupported-version': () => ({
    args: (dir) => {
      const pkg = path.join(dir, 'node_modules/pg');
      mkdirSync(pkg, { recursive: true });
      writeFileSync(path.join(pkg, 'package.json'), '{"name":"pg","version":"7.18.2","main":"index.js"}');
      writeFileSync(path.join(pkg, 'index.js'), 'module.exports = {};\n');
      return [];
    },
    config: { targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG_URL' }] },
    env: () => ({ PG_URL: 'postgres://u:p@127.0.0.1:9/db' }),
  }),
  'hang-ups.sigterm-named': () => ({
    args: () => ['--kinds', 'subsequent', '--iterations', '1000000', '--format', 'json'],
    loud: true,
    signal: { name: 'SIGTERM', when: /^probing lite \(subsequent\)/m, afterMs: 300 },
  }),
  'hang-ups.compare-same-file': () => ({
    command: 'compare',
    args: (dir) => {
      saveRun(dir, 'base.json');
      return ['base.json', './base.json'];
    },
  }),
  'hang-ups.compare-empty-list': () => ({
    command: 'compare',
    args: (dir) => {
      saveRun(dir, 'base.json');
      writeFileSync(path.join(dir, 'empty.json'), '[]');
      return ['base.json', 'empty.json'];
    },
  }),
  'hang-ups.compare-bom': () => ({
    command: 'compare',
    args: (dir) => {
      const text = saveRun(dir, 'base.json');
      writeFileSync(path.join(dir, 'head.json'), `\uFEFF${text}`);
      return ['base.json', 'head.json'];
    },
    check: (run) => assert.match(run.stdout, /^BASE run /m, 'the comparison'),
  }),
  'hang-ups.raw-is-folder': () => ({
    args: (dir) => {
      mkdirSync(path.join(dir, 'out'));
      return [...LOAD, '--raw', 'out/'];
    },
  }),
  'hang-ups.progress-short-schedule': () => ({
    args: () => ['--kinds', 'schedule', '--rate', '2', '--duration', '1'],
    loud: true,
  }),
  'hang-ups.otlp-signal-path': () => ({ args: () => ['--otlp', 'http://127.0.0.1:4318/v1/traces'] }),
  'hang-ups.otlp-both-exporters-none': () => ({
    args: () => ['--otlp', receiver.url],
    env: () => ({ OTEL_METRICS_EXPORTER: 'none', OTEL_TRACES_EXPORTER: 'none' }),
  }),
  'hang-ups.load-database-refusals': () => ({
    args: () => [...LOAD.slice(0, 2), '--concurrency', '6', '--duration', '1'],
    config: { targets: [{ name: 'pg limit', driver: 'pg', connection: 'env:PG_LIMIT' }] },
    env: () => {
      const url = new URL(testbedEnv('DBPROBE_TEST_PG_URL'));
      url.username = LIMITED_ROLE;
      url.password = LIMITED_PASSWORD;
      return { PG_LIMIT: url.toString() };
    },
    check: (run) => {
      const headline = /^- pg limit.*$/m.exec(run.stdout)?.[0] ?? '';
      assert.match(headline, /the database turned connections away there \("too many connections for role/);
      assert.match(headline, /the limit was its connection limit, not the client\.$/);
    },
  }),
  'hang-ups.compare-cancelled-head': () => ({
    command: 'compare',
    args: (dir) => {
      const head = JSON.parse(saveRun(dir, 'base.json')) as Record<string, unknown>;
      writeFileSync(
        path.join(dir, 'head.json'),
        JSON.stringify({ ...head, state: 'cancelled', stopReason: 'cancelled with Ctrl-C (SIGINT)' }),
      );
      return ['base.json', 'head.json'];
    },
    check: (run) => assert.match(run.stdout, /^> \*\*HEAD head\.json is a run that was cancelled/m),
  }),
  'hang-ups.compare-duplicate-measurement': () => ({
    command: 'compare',
    args: (dir) => {
      const head = JSON.parse(saveRun(dir, 'base.json')) as RunResult;
      head.measurements = [...head.measurements, ...head.measurements];
      writeFileSync(path.join(dir, 'head.json'), JSON.stringify(head));
      return ['base.json', 'head.json'];
    },
  }),
  'hang-ups.planetscale-error-in-200': () => ({
    args: () => [],
    config: { targets: [{ name: 'ps', driver: 'planetscale', connection: 'env:PS_URL' }] },
    env: () => ({ PS_URL: `http://user:pass@127.0.0.1:${planetscaleOk.port}` }),
  }),
  'hang-ups.rate-below-one-start': () => ({ args: () => [...LOAD, '--rate', '0.5', '--duration', '1'] }),
};

/** Everything written to a pipe whose writer has closed it. */
function readAll(fd: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(65_536);
  for (;;) {
    const n = readSync(fd, buffer);
    if (n === 0) return Buffer.concat(chunks).toString();
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
}

const ROOT = path.resolve(__dirname, '../..');
const LIMITED_ROLE = `dbprobe_hangups_limit_${process.pid}`;
const LIMITED_PASSWORD = `hang-ups-${process.pid}-limited`;

/** Runs `statements` as the testbed's PostgreSQL admin. */
async function asAdmin(...statements: string[]): Promise<void> {
  const admin = new Client({ connectionString: testbedEnv('DBPROBE_TEST_PG_ADMIN_URL') });
  await admin.connect();
  try {
    for (const statement of statements) await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A real run of the folder's config saved as JSON under `name`; returns its text. */
function saveRun(dir: string, name: string): string {
  const run = execFileSync(process.execPath, [CLI, 'run', '-q', '--format', 'json', '-n', '20'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', LITE: `file:${path.join(dir, 'lite.db')}` },
  }).toString();
  writeFileSync(path.join(dir, name), run);
  return run;
}

/** The testbed's TLS PostgreSQL with `params` added to its URL. */
function pgTls(params: string): string {
  const url = new URL(testbedEnv('DBPROBE_TEST_PG_TLS_URL'));
  for (const [key, value] of new URLSearchParams(params)) url.searchParams.set(key, value);
  return url.toString();
}

const DRIZZLE = { targets: [{ name: 'lite', driver: 'libsql', connection: 'env:LITE', orm: 'drizzle' }] };

const LOAD = ['--kinds', 'load', '--concurrency', '2'];

const ROWS = BAD_INPUTS.filter((r) => r.area === 'hang-ups');

async function runCase(c: Case, cwd: string, env: Record<string, string>): Promise<CliRun> {
  const command = c.command ?? 'run';
  const quiet = command === 'run' && !c.loud ? ['-q'] : [];
  const args = [command, ...quiet, ...c.args(cwd)];
  const when = c.hangUpWhen;
  if (!when) return runSignalled(c, args, cwd, env);
  let hungUp = false;
  const run = await runCliOnClosingTerminal(args, {
    cwd,
    env,
    onStderr: (seen, hangUp) => {
      if (hungUp || !when.test(seen)) return;
      hungUp = true;
      setTimeout(hangUp, 300);
    },
  });
  assert.ok(hungUp, `the run got under way before the terminal closed:\n${run.stderr}`);
  return run;
}

/** When the last run's stderr lines came and how long it lasted after its signal. */
const timing = { lines: [] as { atMs: number; text: string }[], signalToEndMs: 0 };

/** Runs the CLI and sends the case's signal, if any, once its stderr shows the run under way. */
async function runSignalled(c: Case, args: string[], cwd: string, env: Record<string, string>) {
  let pid = 0;
  let sent = false;
  let sentAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let seen = '';
  timing.lines = [];
  const send = () => {
    if (sent || !c.signal) return;
    sent = true;
    const { name, afterMs } = c.signal;
    timer = setTimeout(() => {
      sentAt = performance.now();
      process.kill(pid, name);
    }, afterMs);
  };
  receiver.onConnection = c.signal?.when === 'receiver' ? send : () => {};
  const run = await runCli(args, {
    cwd,
    env,
    timeoutMs: 60_000,
    onSpawn: (p) => (pid = p),
    onStderr: (chunk) => {
      seen += chunk;
      for (const text of chunk.split('\n')) timing.lines.push({ atMs: performance.now(), text });
      const when = c.signal?.when;
      if (when instanceof RegExp && when.test(seen)) send();
    },
  });
  timing.signalToEndMs = performance.now() - sentAt;
  clearTimeout(timer);
  if (c.signal) assert.ok(sent, `the run got under way and was sent ${c.signal.name}:\n${run.stderr}`);
  return run;
}

/** A PlanetScale endpoint that answers 200 with an error and no message. */
const planetscaleOk = {
  port: 0,
  server: createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"error":{}}');
  }),
};

/** An OTLP receiver that accepts connections and never answers. */
const receiver = { url: '', onConnection: () => {}, server: createServer() };

before(async () => {
  // A role PostgreSQL turns away past two sessions (SQLSTATE 53300), for the refusals row.
  await asAdmin(
    `DROP ROLE IF EXISTS ${LIMITED_ROLE}`,
    `CREATE ROLE ${LIMITED_ROLE} LOGIN PASSWORD '${LIMITED_PASSWORD}' CONNECTION LIMIT 2`,
  );
  await new Promise<void>((resolve) => planetscaleOk.server.listen(0, '127.0.0.1', resolve));
  planetscaleOk.port = (planetscaleOk.server.address() as AddressInfo).port;
  receiver.server.on('connection', (socket) => {
    sockets.add(socket);
    receiver.onConnection();
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
});

after(async () => {
  await asAdmin(`DROP ROLE IF EXISTS ${LIMITED_ROLE}`);
  receiver.server.close();
  planetscaleOk.server.close();
  for (const socket of sockets) socket.destroy();
});

const sockets = new Set<Socket>();

test('the hang-ups table: one set-up per row, one row per set-up', () => {
  assertRowsHaveCases(ROWS, CASES);
});

describe('hang-ups rows', () => {
  for (const row of ROWS) {
    test(row.id, async () => {
      const make = CASES[row.id];
      assert.ok(make, `a set-up for ${row.id}`);
      const c = make();
      const base = { targets: [{ name: 'lite', driver: 'libsql', connection: 'env:LITE' }] };
      const cwd = configDir({ ...base, kinds: ['initial'], iterations: 1, warmup: 0, ...c.config });
      const run = await runCase(c, cwd, { LITE: `file:${path.join(cwd, 'lite.db')}`, ...c.env?.() });
      const lines = run.stderr
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      assertRow(row, run, lines);
      c.check?.(run, cwd);
      await c.after?.();
    });
  }
});
