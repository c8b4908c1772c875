/**
 * No secret in anything the tool writes, whoever echoes it. Three secrets: the testbed's sentinel
 * password (in the connection strings and in DBPROBE_TEST_PASSWORD), a Neon-shaped API key
 * (`napi_` + random, NEON_API_KEY) and a runner token (random, no known shape, DBPROBE_TOKEN). They
 * are echoed back by:
 *
 * - suspend commands (`sh -c 'echo $NEON_API_KEY ...; exit 3'`), which inherit the CLI's environment;
 * - the Neon API stand-in (test/fixtures/neonApiStandIn.ts) with its `echo` fault, quoting the
 *   Authorization header and the key in a 401 body;
 * - an HTTP server that quotes the request's credential header and all three secrets in a 500 body:
 *   the http driver's error, from this machine and from a real runner (dist/runner.js on 127.0.0.1,
 *   the secrets in its own environment), and the same server posing as a runner (a proxy's page);
 *
 * and none of them may appear (raw, percent-encoded or base64) in any byte of stdout, stderr, the
 * JSON, Markdown or CSV report, the --summary file, or the runner's log. Each case also checks that
 * the echo happened and was masked, so a run that never quoted anything cannot pass.
 *
 * OpenTelemetry out too: a run that sends to the testbed's receiver (the Neon key as an OTLP header)
 * leaves no secret in any attribute of the traces Jaeger gives back or of the metrics it serves, and
 * a receiver URL holding the runner token as its password is masked in the warning when it is down.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ColdCompute } from '../fixtures/coldCompute';
import { startNeonApiStandIn, type NeonApiStandIn } from '../fixtures/neonApiStandIn';
import { configDir, runCli, type CliRun } from '../helpers/cli';
import { jaegerTraces, jaegerTracesText, scrapeText, waitFor } from '../helpers/otlpReceiver';
import { startRunnerProcess, type RunnerProcess } from '../helpers/runnerProcess';
import { assertNoSecret, sentinelPassword, testbedEnv, withUrl } from '../helpers/testbed';

const NEON_KEY = `napi_${randomBytes(30).toString('hex')}`;
const RUNNER_TOKEN = randomBytes(16).toString('hex');
const PROJECT = 'leak-project';
const ENDPOINT = 'ep-leak-000001';

/** Every output of one CLI run, by name, for the scan and the messages. */
type Outputs = Record<string, string>;

const FORMATS = [
  { format: 'markdown', file: 'summary.md', flags: (file: string) => ['--summary', file] },
  { format: 'json', file: 'result.json', flags: (file: string) => ['--format', 'json', '--out', file] },
  { format: 'csv', file: 'result.csv', flags: (file: string) => ['--format', 'csv', '--out', file] },
] as const;

function secrets(): { name: string; value: string }[] {
  return [
    { name: 'the sentinel password', value: sentinelPassword() },
    { name: 'the Neon API key', value: NEON_KEY },
    { name: 'the runner token', value: RUNNER_TOKEN },
  ];
}

function assertNoLeak(outputs: Outputs): void {
  for (const { name, value } of secrets()) {
    for (const [where, text] of Object.entries(outputs)) {
      try {
        assertNoSecret([text], value);
      } catch (error) {
        assert.fail(`${name} leaked into ${where}: ${(error as Error).message}`);
      }
    }
  }
}

/** Runs the CLI once per output format; returns every output of every run. */
async function runEveryFormat(cwd: string, args: string[], env: Record<string, string>): Promise<Outputs[]> {
  const all: Outputs[] = [];
  for (const { format, file, flags } of FORMATS) {
    const target = path.join(cwd, `${format}-${file}`);
    const run: CliRun = await runCli(['run', ...args, ...flags(target)], { cwd, env, timeoutMs: 90_000 });
    let written: string;
    try {
      written = readFileSync(target, 'utf8');
    } catch {
      written = '';
    }
    assert.ok(written.length > 0, `the ${format} run wrote ${target} (exit ${run.code}): ${run.stderr}`);
    all.push({ [`${format} stdout`]: run.stdout, [`${format} stderr`]: run.stderr, [file]: written });
  }
  return all;
}

function stderrOf(runs: Outputs[]): string {
  return runs
    .flatMap((outputs) => Object.entries(outputs).filter(([where]) => where.endsWith('stderr')))
    .map(([, text]) => text)
    .join('\n');
}

/** Answers every request with 500 and a body quoting its credential headers and all three secrets. */
async function startEchoServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    const header = (name: string) => String(req.headers[name] ?? '');
    const body = `echo ${header('apikey')} ${header('authorization')} ${NEON_KEY} ${RUNNER_TOKEN} ${sentinelPassword()}`;
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}` };
}

describe('no secret reaches any output', () => {
  let echo: { server: Server; url: string };
  let neon: NeonApiStandIn;
  let runner: RunnerProcess;
  const pgUrl = () => testbedEnv('DBPROBE_TEST_PG_URL');
  const httpUrl = () =>
    withUrl(echo.url, (u) => ((u.username = 'apikey'), (u.password = sentinelPassword())));

  before(async () => {
    echo = await startEchoServer();
    // A compute that is never started: every API call meets the echo fault before it.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dbprobe-leak-'));
    const compute = new ColdCompute({ binDir: dir, dataDir: dir, port: 1, logFile: path.join(dir, 'log') });
    neon = await startNeonApiStandIn({ compute, apiKey: NEON_KEY, projectId: PROJECT, endpointId: ENDPOINT });
    const fault = await fetch(`${new URL(neon.url).origin}/_fixture/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${NEON_KEY}` },
      body: JSON.stringify({ status: 401, echo: true, count: 100 }),
    });
    assert.equal(fault.status, 200);
    runner = await startRunnerProcess({
      DBPROBE_TOKEN: RUNNER_TOKEN,
      RUNNER_HTTP: httpUrl(),
      NEON_API_KEY: NEON_KEY,
      DBPROBE_TEST_PASSWORD: sentinelPassword(),
    });
  });
  after(async () => {
    await runner?.stop();
    await neon?.close();
    await new Promise<void>((resolve) => (echo ? echo.server.close(() => resolve()) : resolve()));
  });

  test('echoed by suspend commands, the Neon API and a driver error on this machine', async () => {
    const cwd = configDir({
      targets: [
        {
          name: 'by-command',
          driver: 'pg',
          connection: 'env:LEAK_PG',
          cold: {
            mode: 'command',
            command: [
              'sh',
              '-c',
              'echo "using $LEAK_PG key $NEON_API_KEY token $DBPROBE_TOKEN password $DBPROBE_TEST_PASSWORD" >&2; exit 3',
            ],
          },
        },
        {
          name: 'by-neon-api',
          driver: 'pg',
          connection: 'env:LEAK_PG',
          cold: {
            mode: 'neon-api',
            neon: { projectId: PROJECT, endpointId: ENDPOINT, apiUrl: neon.url, apiKey: 'env:NEON_API_KEY' },
          },
        },
        {
          name: 'by-driver',
          driver: 'http',
          connection: 'env:LEAK_HTTP',
          cold: { mode: 'command', command: ['sh', '-c', 'echo "$LEAK_HTTP"; exit 4'] },
        },
      ],
      kinds: ['initial', 'cold'],
      iterations: 2,
      warmup: 0,
      cold: { samples: 1, pauseMs: 0 },
    });
    const env = {
      LEAK_PG: pgUrl(),
      LEAK_HTTP: httpUrl(),
      NEON_API_KEY: NEON_KEY,
      DBPROBE_TOKEN: RUNNER_TOKEN,
      DBPROBE_TEST_PASSWORD: sentinelPassword(),
    };
    const runs = await runEveryFormat(cwd, [], env);
    for (const outputs of runs) assertNoLeak(outputs);
    // The echoes happened, and were masked where they were quoted.
    const stderr = stderrOf(runs);
    assert.match(
      stderr,
      /suspend command .* exited with code 3 \(using postgres:\/\/dbprobe:\*\*\*\*@\S+ key \*\*\*\* token \*\*\*\* password \*\*\*\*\)/,
    );
    // by-driver failed its initial kind first: its command's line is in the reports' error lists.
    assert.match(
      runs.flatMap((o) => Object.values(o)).join('\n'),
      /exited with code 4 \(http:\/\/apikey:\*\*\*\*@[^)\s]*\)/,
    );
    assert.match(
      stderr,
      /the Neon API refused the API key \(401: the key \*\*\*\* in "Authorization: Bearer \*\*\*\*"/,
    );
    assert.match(stderr, /HTTP 500 .*: echo \*\*\*\*/);
  });

  test('echoed by a driver error on a real runner, and by a server posing as a runner', async () => {
    const cwd = configDir({
      targets: [{ name: 'on-runner', driver: 'http', connection: 'env:RUNNER_HTTP' }],
      kinds: ['initial'],
      iterations: 2,
      warmup: 0,
    });
    const env = {
      DBPROBE_TOKEN: RUNNER_TOKEN,
      NEON_API_KEY: NEON_KEY,
      DBPROBE_TEST_PASSWORD: sentinelPassword(),
    };
    const runs = await runEveryFormat(cwd, ['--runner', runner.url], env);
    for (const outputs of runs) assertNoLeak(outputs);
    assert.match(stderrOf(runs), /HTTP 500 .*: echo \*\*\*\*/);

    // The echo server as a runner: it answers 500 quoting "Authorization: Bearer <token>".
    const posing = await runCli(['run', '--runner', echo.url], { cwd, env, timeoutMs: 60_000 });
    assertNoLeak({ 'posing stdout': posing.stdout, 'posing stderr': posing.stderr });
    assert.match(posing.stderr, /answered 500: echo Bearer \*\*\*\*/);
    assertNoLeak({ 'runner log': runner.stderr() });
  });

  test('no secret in any OpenTelemetry attribute, nor in what the export says', async () => {
    const service = `dbprobe-leak-${randomBytes(4).toString('hex')}`;
    const cwd = configDir({
      targets: [
        { name: 'pg', driver: 'pg', connection: 'env:LEAK_PG' },
        { name: 'echo', driver: 'http', connection: 'env:LEAK_HTTP' },
      ],
      kinds: ['initial', 'subsequent'],
      iterations: 2,
      warmup: 0,
    });
    const env = {
      LEAK_PG: pgUrl(),
      LEAK_HTTP: httpUrl(),
      DBPROBE_TOKEN: RUNNER_TOKEN,
      DBPROBE_TEST_PASSWORD: sentinelPassword(),
      OTEL_EXPORTER_OTLP_ENDPOINT: testbedEnv('DBPROBE_TEST_OTLP_URL'),
      OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${NEON_KEY}`,
      OTEL_SERVICE_NAME: service,
    };
    const run = await runCli(['run', '--format', 'json'], { cwd, env, timeoutMs: 90_000 });
    assert.match(run.stderr, /HTTP 500 .*: echo \*\*\*\*/);
    await waitFor('the run in Jaeger', 20_000, async () =>
      (await jaegerTraces(service)).length >= 2 ? true : undefined,
    );
    const traces = await jaegerTracesText(service);
    const metrics = await waitFor('the run in the scrape', 20_000, async () => {
      const text = (await scrapeText())
        .split('\n')
        .filter((line) => line.includes(`job="${service}"`))
        .join('\n');
      return text.includes('"error.type"') && text.includes('db.client.operation.duration')
        ? text
        : undefined;
    });
    // What the scan reads holds the attributes that could carry a secret.
    assert.match(traces, /"key":"server\.address","type":"string","value":"127\.0\.0\.1"/);
    assert.match(metrics, /"error\.type"="\w+"/);
    assertNoLeak({
      stdout: run.stdout,
      stderr: run.stderr,
      'Jaeger traces': traces,
      'scraped metrics': metrics,
    });

    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const down = await runCli(
      ['run', '--quiet', '--targets', 'pg', '--otlp', `http://probe:${RUNNER_TOKEN}@127.0.0.1:${closed}`],
      {
        cwd,
        env,
        timeoutMs: 90_000,
      },
    );
    assert.match(down.stderr, /could not send the metrics to http:\/\/probe:\*\*\*\*@127\.0\.0\.1/);
    assertNoLeak({ 'down stdout': down.stdout, 'down stderr': down.stderr });
  });
});
