/**
 * The runner's watch mode (`dbprobe-runner --watch`): the real dist/runner.js probes the testbed
 * PostgreSQL on a schedule and serves /metrics behind DBPROBE_TOKEN (Bearer, as Prometheus sends it):
 * 401 without or with a wrong token, 200 with it, pg `subsequent` buckets whose counts grow between
 * two reads, pg's success gauges at 1 with its health in the log, and neither the password nor the
 * token anywhere. Open on loopback only when asked.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { type RunnerProcess, startRunnerProcess } from '../helpers/runnerProcess';
import { tempDir } from '../helpers/tempDir';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

const RUNNER = path.resolve(__dirname, '../../dist/runner.js');
const runners: RunnerProcess[] = [];
after(async () => {
  for (const runner of runners) await runner.stop('SIGKILL');
});

function watchConfig(): string {
  const file = path.join(tempDir('runner-watch'), 'dbprobe.json');
  writeFileSync(
    file,
    JSON.stringify({
      targets: [{ name: 'pg', driver: 'pg', connection: 'env:DBPROBE_TEST_PG_URL' }],
      kinds: ['initial', 'subsequent'],
      iterations: 5,
    }),
  );
  return file;
}

async function scrape(url: string, token?: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(5_000),
  });
  return { status: response.status, body: await response.text() };
}

/** The +Inf bucket of pg `subsequent`: every measured sample so far; undefined before the first run. */
function subsequentCount(body: string): number | undefined {
  const line = body
    .split('\n')
    .find(
      (l) =>
        l.startsWith('dbprobe_probe_seconds_bucket{') &&
        l.includes('target="pg"') &&
        l.includes('kind="subsequent"') &&
        l.includes('le="+Inf"'),
    );
  return line ? Number(line.split(' ').at(-1)) : undefined;
}

/** Scrapes until `accept` holds for the pg subsequent count; bounded in time. */
async function scrapeUntil(
  url: string,
  token: string,
  accept: (count: number, body: string) => boolean,
): Promise<{ count: number; body: string }> {
  const deadline = Date.now() + 20_000;
  let last = '';
  while (Date.now() < deadline) {
    const { status, body } = await scrape(url, token);
    assert.equal(status, 200, body);
    last = body;
    const count = subsequentCount(body);
    if (count !== undefined && accept(count, body)) return { count, body };
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for pg subsequent samples on /metrics; last body:\n${last}`);
}

test('dbprobe-runner --watch serves growing pg histograms on /metrics behind the token', async () => {
  const token = randomBytes(24).toString('hex');
  const password = testbedEnv('DBPROBE_TEST_PASSWORD');
  const runner = await startRunnerProcess(
    { DBPROBE_TOKEN: token, DBPROBE_TEST_PG_URL: testbedEnv('DBPROBE_TEST_PG_URL') },
    ['--watch', '--every', '300ms', '--config', watchConfig()],
  );
  runners.push(runner);
  assert.match(runner.stderr(), /watch: serving http:\/\/127\.0\.0\.1:\d+\/metrics \(Bearer/);

  assert.equal((await scrape(runner.url)).status, 401, 'no token');
  assert.equal((await scrape(runner.url, `${token}x`)).status, 401, 'wrong token');

  const first = await scrapeUntil(runner.url, token, (count) => count > 0);
  assert.match(first.body, /^# TYPE dbprobe_probe_seconds histogram$/m);
  assert.match(
    first.body,
    // Labels in any order: the exposition format does not fix one.
    /^dbprobe_probe_seconds_bucket\{(?=[^}]*\btarget="pg")(?=[^}]*\bkind="subsequent")(?=[^}]*\ble="0\.0005")[^}]*\} \d+$/m,
  );
  const second = await scrapeUntil(runner.url, token, (count) => count > first.count);
  assert.ok(second.count > first.count, `${second.count} > ${first.count}`);
  // Health, judged as `dbprobe watch` judges it: success per kind once a run has ended, said in the log.
  const judged = await scrapeUntil(runner.url, token, (_, body) => /^dbprobe_probe_success\{/m.test(body));
  assert.match(judged.body, /^dbprobe_probe_success\{target="pg",kind="initial"\} 1$/m);
  assert.match(judged.body, /^dbprobe_probe_success\{target="pg",kind="subsequent"\} 1$/m);
  assert.match(
    judged.body,
    /^dbprobe_probe_last_success_timestamp_seconds\{target="pg",kind="subsequent"\} \d/m,
  );
  assert.match(
    runner.stderr(),
    /dbprobe runner watch: pg is up: the last run measured 10 samples \(initial, subsequent\), none failed/,
  );

  const response = await fetch(`${runner.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  await response.text();
  const texts = [first.body, second.body, judged.body, runner.stderr()];
  assertNoSecret(texts, password);
  for (const text of texts) assert.ok(!text.includes(token), 'the token leaked into /metrics or the log');
});

test('--open-on-loopback serves /metrics without the token on 127.0.0.1 only; the API keeps it', async () => {
  const token = randomBytes(24).toString('hex');
  const env = { DBPROBE_TOKEN: token, DBPROBE_TEST_PG_URL: testbedEnv('DBPROBE_TEST_PG_URL') };
  const args = ['--watch', '--every', '300ms', '--config', watchConfig(), '--open-on-loopback'];
  const runner = await startRunnerProcess(env, args);
  runners.push(runner);
  const { count } = await scrapeUntil(runner.url, '', (n) => n > 0);
  assert.ok(count > 0);
  const health = await fetch(`${runner.url}/v1/health`, { signal: AbortSignal.timeout(5_000) });
  assert.equal(health.status, 401, 'the runner API still needs the token');
  await health.text();

  // Elsewhere it refuses to start (exit 2, saying why); a runner that started anyway is killed.
  const refused = spawn(process.execPath, [RUNNER, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env, HOST: '0.0.0.0', PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  refused.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => refused.kill('SIGKILL'), 10_000);
  const [code] = (await once(refused, 'exit')) as [number | null];
  clearTimeout(timer);
  assert.equal(code, 2, stderr);
  assert.match(stderr, /only on 127\.0\.0\.1 \(got HOST=0\.0\.0\.0\)/);
});
