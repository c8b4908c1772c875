/**
 * What `dbprobe watch` serves on /metrics is valid Prometheus exposition as Prometheus's own linter
 * reads it: `promtool check metrics` (Debian's prometheus package, installed by the testbed) exits 0
 * on a scrape of a real watch with one target up (the testbed PostgreSQL) and one down (a port
 * nobody listens on), so every family the watch writes (histogram, quantile summary, counters,
 * success and freshness gauges) is in it. The scrape is also checked for the two health states,
 * so the linter saw both, and for the password.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { closedPort } from '../catalogue/endpoints';
import { CLI } from '../helpers/cli';
import { PROMTOOL, promtool } from '../helpers/promtool';
import { tempDir } from '../helpers/tempDir';
import { assertNoSecret, testbedEnv, withUrl } from '../helpers/testbed';

const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

test('promtool check metrics passes on a watch with one target up and one down', async () => {
  assert.ok(
    existsSync(PROMTOOL),
    `${PROMTOOL} is missing: run \`bash scripts/testbed/up.sh\` (it installs prometheus)`,
  );
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const password = testbedEnv('DBPROBE_TEST_PASSWORD');
  const pgUrl = testbedEnv('DBPROBE_TEST_PG_URL');
  const downPort = await closedPort();
  const dir = tempDir('watch-promtool');
  writeFileSync(
    path.join(dir, 'dbprobe.json'),
    JSON.stringify({
      targets: [
        { name: 'pg', driver: 'pg', connection: 'env:WATCH_PG_URL' },
        { name: 'gone', driver: 'pg', connection: 'env:WATCH_GONE_URL' },
      ],
      kinds: ['initial', 'subsequent'],
    }),
  );
  const child = spawn(
    process.execPath,
    [CLI, 'watch', '--port', '0', '--open-on-loopback', '--every', '500ms', '--iterations', '3'],
    {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        WATCH_PG_URL: pgUrl,
        WATCH_GONE_URL: withUrl(pgUrl, (u) => (u.port = String(downPort))),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();

  // Both health lines come after the first run; /metrics then holds both states.
  const deadline = Date.now() + 30_000;
  while (!(/pg is up/.test(stderr) && /gone is down/.test(stderr))) {
    assert.equal(child.exitCode, null, `the watch exited: ${stderr}`);
    assert.ok(Date.now() < deadline, `no health lines for both targets within 30 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const url = /serving (http:\/\/\S+\/metrics)/.exec(stderr)?.[1];
  assert.ok(url, stderr);
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const exposition = await response.text();
  assert.match(exposition, /^dbprobe_probe_success\{target="pg",kind="subsequent"\} 1$/m);
  assert.match(exposition, /^dbprobe_probe_success\{target="gone",kind="subsequent"\} 0$/m);
  assert.match(exposition, /^dbprobe_probe_quantile_seconds\{target="pg",[^}]*quantile="0\.99"\} \S+$/m);
  assert.match(exposition, /^dbprobe_probe_errors_total\{target="gone",kind="initial",class="\w+"\} \d+$/m);
  assertNoSecret([exposition, stderr], password);

  const checked = await promtool(['check', 'metrics'], exposition);
  console.log(`promtool check metrics: exit ${checked.code}${checked.out ? `\n${checked.out}` : ''}`);
  assert.equal(checked.code, 0, `promtool check metrics:\n${checked.out}\n--- the scrape:\n${exposition}`);

  child.kill('SIGINT');
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  assert.equal(code, 130, stderr);
});
