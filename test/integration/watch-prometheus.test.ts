/**
 * `dbprobe watch` scraped by a real Prometheus (Debian's package, installed by scripts/testbed/up.sh,
 * started here with a private config and data dir): the Bearer token works as Prometheus sends it,
 * histogram_quantile over the watch's buckets lies within one bucket of the watch's own HDR p50s (the
 * lowest to the highest run's Prometheus scraped: the noise between runs, measured in the test); when
 * toxiproxy cuts the target, the error counter moves, dbprobe_probe_success drops to 0 within one run
 * and the quantile series go absent (not stale), and both come back with the proxy; no label or
 * sample holds the password. The shipped alert rules (deploy/prometheus/) load into that Prometheus
 * and DBProbeTargetDown fires while the target is down; every query of the shipped Grafana dashboard
 * evaluates there; promtool checks and unit-tests the rules. A long watch's memory is checked in
 * watch-memory.test.ts, which may run beside other files (this one runs alone for its quantiles).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { WATCH_BUCKETS_US } from '../../src/report/watchMetrics';
import { createToxiProxy, type ToxiProxy } from '../fixtures/toxiproxy';
import { CLI } from '../helpers/cli';
import { dashboardQueries, RULE_TESTS, RULES } from '../helpers/deployFiles';
import { PROMTOOL, promtool } from '../helpers/promtool';
import { tempDir } from '../helpers/tempDir';
import { assertNoSecret, testbedEnv, withUrl } from '../helpers/testbed';

const PROMETHEUS = '/usr/bin/prometheus';
const children: ChildProcess[] = [];
const proxies: ToxiProxy[] = [];
after(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const proxy of proxies) await proxy.remove();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls until `check` returns a value (not undefined) or the time is up; bounded in time. */
async function waitFor<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `timed out after ${ms} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`,
  );
}

interface Watch {
  child: ChildProcess;
  stderr: () => string;
  url: string;
}

async function startWatch(
  dir: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): Promise<Watch> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'watch', '--port', '0', ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();
  const url = await waitFor('the watch to serve /metrics', 15_000, async () => {
    if (child.exitCode !== null) throw new Error(`watch exited ${child.exitCode}: ${stderr}`);
    return /serving (http:\/\/\S+\/metrics)/.exec(stderr)?.[1];
  });
  return { child, stderr: () => stderr, url };
}

async function promQuery(
  base: string,
  query: string,
): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const response = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(query)}`, {
    signal: AbortSignal.timeout(5_000),
  });
  const body = (await response.json()) as {
    status: string;
    data: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  assert.equal(body.status, 'success', JSON.stringify(body));
  return body.data.result;
}

async function scalar(base: string, query: string): Promise<number | undefined> {
  const first = (await promQuery(base, query))[0];
  return first ? Number(first.value[1]) : undefined;
}

/** docs/watch.md's "target down" query. */
const TARGET_DOWN = 'dbprobe_probe_success == 0';

/** pg's success gauge per kind as Prometheus holds it now. */
async function successOf(base: string): Promise<Record<string, number>> {
  const rows = await promQuery(base, 'dbprobe_probe_success{target="pg"}');
  return Object.fromEntries(rows.map((r) => [r.metric.kind ?? '?', Number(r.value[1])]));
}

/**
 * The shipped rules with every `for` cut to 1 s, so a test sees an alert fire in seconds; the
 * expressions are the shipped ones (promtool's unit tests cover the real `for` durations).
 */
function withShortFor(rules: string): string {
  const fors = rules.match(/^\s+for: \S+$/gm) ?? [];
  assert.equal(fors.length, (rules.match(/^\s+- alert: /gm) ?? []).length, 'one `for` per alert');
  return rules.replace(/^(\s+)for: \S+$/gm, '$1for: 1s');
}

/** Every rule of the shipped file loaded by Prometheus, and none in error. */
async function assertRulesLoaded(base: string): Promise<void> {
  const body = (await fetch(`${base}/api/v1/rules`, { signal: AbortSignal.timeout(5_000) }).then((r) =>
    r.json(),
  )) as { data: { groups: { rules: { name: string; health: string; lastError?: string }[] }[] } };
  const rules = body.data.groups.flatMap((g) => g.rules);
  assert.deepEqual(
    rules.map((r) => r.name),
    [
      'DBProbeTargetDown',
      'DBProbeSubsequentP99OverBudget',
      'DBProbeInitialP99OverBudget',
      'DBProbeErrorRateHigh',
      'DBProbeWatchStalled',
    ],
  );
  for (const rule of rules) assert.equal(rule.health, 'ok', `${rule.name}: ${rule.lastError ?? ''}`);
}

/** The DBProbeTargetDown alerts Prometheus holds now (pending or firing), as `target/kind state`. */
async function targetDownAlerts(base: string): Promise<string[]> {
  const body = (await fetch(`${base}/api/v1/alerts`, { signal: AbortSignal.timeout(5_000) }).then((r) =>
    r.json(),
  )) as { data: { alerts: { labels: Record<string, string>; state: string }[] } };
  return body.data.alerts
    .filter((a) => a.labels.alertname === 'DBProbeTargetDown')
    .map((a) => `${a.labels.target}/${a.labels.kind} ${a.state}`)
    .sort();
}

/**
 * Every panel query of the shipped dashboard evaluates in this Prometheus, Grafana's variables
 * filled in as its "All" would; the health and latency panels have data.
 */
async function assertDashboardQueriesAnswer(base: string): Promise<void> {
  const panels = dashboardQueries().filter((q) => !q.expr.startsWith('label_values('));
  for (const { where, expr } of panels) {
    const query = expr
      .replaceAll('$__rate_interval', '1m')
      .replaceAll('$target', '.*')
      .replaceAll('$kind', '.*');
    const rows = await promQuery(base, query);
    const needsData = /dbprobe_probe_(success|quantile_seconds|seconds_bucket)\b/.test(expr);
    if (needsData) assert.ok(rows.length > 0, `${where}: no data for ${query}`);
  }
}

/** The number of the last run the watch's stderr reported (0 before the first). */
function lastRun(stderr: string): number {
  return Math.max(0, ...[...stderr.matchAll(/run (\d+) in /g)].map((m) => Number(m[1])));
}

/** The index of the bucket a value in seconds falls into (le inclusive); past the last: +Inf. */
function bucketIndex(seconds: number): number {
  const i = WATCH_BUCKETS_US.findIndex((bound) => seconds * 1e6 <= bound * (1 + 1e-9));
  return i === -1 ? WATCH_BUCKETS_US.length : i;
}

test('Prometheus scrapes the watch with the token; quantiles agree, errors count, no secret', async () => {
  assert.ok(
    existsSync(PROMETHEUS),
    `${PROMETHEUS} is missing: run \`bash scripts/testbed/up.sh\` (it installs prometheus)`,
  );
  const password = testbedEnv('DBPROBE_TEST_PASSWORD');
  const pgUrl = testbedEnv('DBPROBE_TEST_PG_URL');
  const pg = new URL(pgUrl);
  const proxy = await createToxiProxy(
    testbedEnv('DBPROBE_TEST_TOXIPROXY_URL'),
    `${pg.hostname}:${pg.port}`,
    'watch',
  );
  proxies.push(proxy);
  const dir = tempDir('watch-prom');
  const token = randomBytes(24).toString('hex');
  const tokenFile = path.join(dir, 'token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  writeFileSync(
    path.join(dir, 'dbprobe.json'),
    JSON.stringify({
      targets: [{ name: 'pg', driver: 'pg', connection: 'env:WATCH_PG_URL' }],
      kinds: ['initial', 'subsequent'],
    }),
  );
  const watch = await startWatch(dir, ['--every', '1s', '--iterations', '20', '--token-file', tokenFile], {
    WATCH_PG_URL: withUrl(pgUrl, (u) => (u.port = String(proxy.port))),
  });
  const target = new URL(watch.url).host;
  assert.equal(new URL(watch.url).hostname, '127.0.0.1', 'the watch binds to loopback by default');
  assert.equal(
    (await fetch(watch.url, { signal: AbortSignal.timeout(5_000) })).status,
    401,
    '/metrics without the token',
  );

  const promPort = await freePort();
  const prom = `http://127.0.0.1:${promPort}`;
  const rulesFile = path.join(dir, 'dbprobe-rules.yml');
  writeFileSync(rulesFile, withShortFor(readFileSync(RULES, 'utf8')));
  writeFileSync(
    path.join(dir, 'prom.yml'),
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'rule_files:',
      `  - ${rulesFile}`,
      'scrape_configs:',
      '  - job_name: dbprobe',
      '    authorization:',
      '      type: Bearer',
      `      credentials_file: ${tokenFile}`,
      '    static_configs:',
      `      - targets: ['${target}']`,
      '',
    ].join('\n'),
  );
  let promLog = '';
  const prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${path.join(dir, 'prom.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${promPort}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(prometheus);
  prometheus.stdout!.on('data', (c: Buffer) => (promLog += c.toString()));
  prometheus.stderr!.on('data', (c: Buffer) => (promLog += c.toString()));
  try {
    await waitFor('Prometheus to be ready', 30_000, async () => {
      if (prometheus.exitCode !== null) throw new Error(`prometheus exited: ${promLog.slice(-2000)}`);
      return (await fetch(`${prom}/-/ready`, { signal: AbortSignal.timeout(2_000) })).ok || undefined;
    });
    // Two successful scrapes (up == 1 twice), with subsequent samples in them.
    await waitFor('two scrapes of the watch', 30_000, async () => {
      const scrapes = await scalar(prom, 'sum_over_time(up{job="dbprobe"}[1m])');
      const count = await scalar(prom, 'dbprobe_probe_seconds_count{kind="subsequent"}');
      return scrapes !== undefined && scrapes >= 2 && (count ?? 0) > 0 ? true : undefined;
    });

    const quantile = await scalar(
      prom,
      'histogram_quantile(0.5, sum by (le) (dbprobe_probe_seconds_bucket{target="pg",kind="subsequent"}))',
    );
    const own = await scalar(
      prom,
      'dbprobe_probe_quantile_seconds{target="pg",kind="subsequent",quantile="0.5"}',
    );
    // The buckets count every run since the watch started; the gauge is the last run's p50. On a
    // loaded host the runs' own p50s move by a bucket or two from run to run, so the pooled quantile
    // is set against the spread of the runs' p50s Prometheus scraped in this same test (the pooled
    // median lies between the lowest and highest run's), one bucket of interpolation either side.
    const gauge = 'dbprobe_probe_quantile_seconds{target="pg",kind="subsequent",quantile="0.5"}';
    const lowest = await scalar(prom, `min_over_time(${gauge}[10m])`);
    const highest = await scalar(prom, `max_over_time(${gauge}[10m])`);
    assert.ok(
      quantile !== undefined && own !== undefined && lowest !== undefined && highest !== undefined,
      'both the quantile and the gauge are in Prometheus',
    );
    const [from, to] = [bucketIndex(lowest) - 1, bucketIndex(highest) + 1];
    console.log(
      `pg subsequent p50: histogram_quantile ${(quantile * 1e3).toFixed(3)} ms (bucket ${bucketIndex(quantile)}), watch's HDR gauge ${(own * 1e3).toFixed(3)} ms, the runs' p50s ${(lowest * 1e3).toFixed(3)} to ${(highest * 1e3).toFixed(3)} ms (buckets ${bucketIndex(lowest)} to ${bucketIndex(highest)})`,
    );
    assert.ok(
      bucketIndex(quantile) >= from && bucketIndex(quantile) <= to,
      `histogram_quantile (${quantile} s, bucket ${bucketIndex(quantile)}) is more than one bucket outside the runs' p50s (${lowest} to ${highest} s, buckets ${bucketIndex(lowest)} to ${bucketIndex(highest)})`,
    );

    // Healthy: success 1 for both kinds (scraped once a run has ended), no target down.
    await waitFor('success 1 for both kinds', 30_000, async () => {
      const success = await successOf(prom);
      return success.initial === 1 && success.subsequent === 1 ? true : undefined;
    });
    assert.equal((await promQuery(prom, TARGET_DOWN)).length, 0, 'no target is down yet');
    await assertRulesLoaded(prom);
    assert.deepEqual(await targetDownAlerts(prom), [], 'DBProbeTargetDown is not firing while pg answers');
    await assertDashboardQueriesAnswer(prom);

    // Cut the target: every new connection through the proxy is reset.
    const errorsBefore = (await scalar(prom, 'sum(dbprobe_probe_errors_total{target="pg"})')) ?? 0;
    const runsBeforeCut = lastRun(watch.stderr());
    await proxy.addToxic('reset_peer', { timeout: 0 }, 'downstream');
    await proxy.addToxic('reset_peer', { timeout: 0 }, 'upstream');
    const errorsAfter = await waitFor('the error counter to move in Prometheus', 30_000, async () => {
      const now = (await scalar(prom, 'sum(dbprobe_probe_errors_total{target="pg"})')) ?? 0;
      return now > errorsBefore ? now : undefined;
    });
    const classes = (await promQuery(prom, 'dbprobe_probe_errors_total{target="pg"}')).map(
      (r) => `${r.metric.kind}/${r.metric.class}`,
    );
    console.log(
      `errors in Prometheus: ${errorsBefore} before the cut, ${errorsAfter} after (${classes.join(', ')})`,
    );

    // Down, as Prometheus holds it: success 0 for both kinds, the quantile series gone (not stale).
    const lastHealthy = await scalar(prom, 'max(dbprobe_probe_last_success_timestamp_seconds{target="pg"})');
    assert.ok(lastHealthy !== undefined, 'a last-success time while healthy');
    await waitFor('pg down in Prometheus: success 0, no p50/p99', 30_000, async () => {
      const success = await successOf(prom);
      const latencies = await promQuery(prom, 'dbprobe_probe_quantile_seconds{target="pg"}');
      return success.initial === 0 && success.subsequent === 0 && latencies.length === 0 ? true : undefined;
    });
    const stuckAt = await scalar(prom, 'max(dbprobe_probe_last_success_timestamp_seconds{target="pg"})');
    assert.ok(
      stuckAt !== undefined && stuckAt >= lastHealthy && stuckAt < Date.now() / 1_000,
      `the last success (${stuckAt}) is the last healthy run's end (${lastHealthy} or later, before now)`,
    );
    // The watch said so after the first run that started after the cut, at the latest.
    const downLine = /pg is down: [^\n]*\n(?:[^\n]*\n)*?[^\n]*run (\d+) in /.exec(watch.stderr());
    assert.ok(downLine, `the watch said pg is down: ${watch.stderr().slice(-2000)}`);
    const downRun = Number(downLine[1]);
    console.log(
      `pg down: last run before the cut ${runsBeforeCut}, judged down after run ${downRun}: ${/pg is down: [^\n]*/.exec(watch.stderr())?.[0]}`,
    );
    assert.ok(
      downRun <= runsBeforeCut + 2,
      `success went to 0 only after run ${downRun}; the cut came after run ${runsBeforeCut}`,
    );
    assert.deepEqual(
      (await promQuery(prom, TARGET_DOWN)).map((r) => `${r.metric.target}/${r.metric.kind}`).sort(),
      ['pg/initial', 'pg/subsequent'],
      'the documented "target down" query names pg',
    );
    // The shipped rule fires (its `for` shortened to 1 s) as Prometheus's own alerts API reports it.
    const firing = await waitFor('DBProbeTargetDown to fire for pg', 30_000, async () => {
      const alerts = await targetDownAlerts(prom);
      return alerts.length === 2 && alerts.every((a) => a.endsWith(' firing')) ? alerts : undefined;
    });
    assert.deepEqual(firing, ['pg/initial firing', 'pg/subsequent firing']);
    console.log(`alerts while pg is down: DBProbeTargetDown ${firing.join(', ')}`);
    // The errors counter keeps rising while the latency series stay absent and the last success stays put.
    const errorsDown = (await scalar(prom, 'sum(dbprobe_probe_errors_total{target="pg"})')) ?? 0;
    await waitFor('the error counter to keep rising while pg is down', 30_000, async () => {
      const now = (await scalar(prom, 'sum(dbprobe_probe_errors_total{target="pg"})')) ?? 0;
      return now > errorsDown ? true : undefined;
    });
    assert.deepEqual(await successOf(prom), { initial: 0, subsequent: 0 });
    assert.equal(
      (await promQuery(prom, 'dbprobe_probe_quantile_seconds{target="pg"}')).length,
      0,
      'no p50/p99 for pg while it is down',
    );
    const lastSuccess = await scalar(prom, 'max(dbprobe_probe_last_success_timestamp_seconds{target="pg"})');
    assert.equal(lastSuccess, stuckAt, 'the last success stays at the last healthy run while pg is down');

    // Back: the proxy lets connections through again; success 1 and the gauges return.
    await proxy.removeToxic('reset_peer', 'downstream');
    await proxy.removeToxic('reset_peer', 'upstream');
    await waitFor('pg up again in Prometheus', 30_000, async () => {
      const success = await successOf(prom);
      const p50 = await promQuery(prom, 'dbprobe_probe_quantile_seconds{target="pg",quantile="0.5"}');
      return success.initial === 1 && success.subsequent === 1 && p50.length === 2 ? true : undefined;
    });
    assert.equal((await promQuery(prom, TARGET_DOWN)).length, 0, 'no target is down once pg is back');
    await waitFor('DBProbeTargetDown to resolve', 30_000, async () =>
      (await targetDownAlerts(prom)).length === 0 ? true : undefined,
    );
    assert.match(
      watch.stderr().slice(downLine.index),
      /pg is up: the last run measured \d+ samples \(initial, subsequent\)/,
      'the watch said pg is up again',
    );

    // No label or sample holds the password: every dbprobe series in Prometheus, /metrics, the log.
    const series = await fetch(`${prom}/api/v1/series?match[]=${encodeURIComponent('{job="dbprobe"}')}`, {
      signal: AbortSignal.timeout(5_000),
    }).then((r) => r.text());
    assert.match(series, /dbprobe_probe_seconds_bucket/);
    const metrics = await fetch(watch.url, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5_000),
    }).then((r) => r.text());
    assertNoSecret([series, metrics, watch.stderr()], password);
    assertNoSecret([series, metrics, watch.stderr()], token);

    // Ctrl-C stops the watch within a second (plus process start-up slack on a shared machine).
    const stopAt = Date.now();
    watch.child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => watch.child.once('exit', (c) => resolve(c)));
    const stopMs = Date.now() - stopAt;
    console.log(`watch stopped ${stopMs} ms after SIGINT, exit ${code}`);
    assert.equal(code, 130);
    assert.ok(stopMs < 2_000, `the watch took ${stopMs} ms to stop after SIGINT`);
  } finally {
    prometheus.kill('SIGTERM');
  }
});

test('promtool checks the shipped alert rules and runs their unit tests', async () => {
  assert.ok(
    existsSync(PROMTOOL),
    `${PROMTOOL} is missing: run \`bash scripts/testbed/up.sh\` (it installs prometheus)`,
  );
  for (const args of [
    ['check', 'rules', RULES],
    ['test', 'rules', RULE_TESTS],
  ]) {
    const done = await promtool(args);
    assert.equal(done.code, 0, `promtool ${args.join(' ')}:\n${done.out}`);
    assert.match(done.out, /SUCCESS/);
  }
});
