/**
 * `dbprobe watch` refuses what would expose /metrics or load a database before it serves or probes
 * anything: no token without --open-on-loopback, an open endpoint off loopback, duration kinds, a
 * malformed interval. All exit 2 with a message that says what to do; no database is needed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configDir, runCli } from '../helpers/cli';

const config = { targets: [{ name: 'pg', driver: 'pg', connection: 'env:WATCH_PG' }], kinds: ['subsequent'] };
const env = { WATCH_PG: 'postgres://u:unused-Pw-1@127.0.0.1:1/x' };

test('watch refuses unsafe or impossible settings with exit 2 and what to do', async () => {
  const cwd = configDir(config);
  const cases: [string[], RegExp][] = [
    [[], /\/metrics needs a token: set DBPROBE_WATCH_TOKEN or pass --token-file/],
    [
      ['--open-on-loopback', '--host', '0.0.0.0'],
      /without a token only on 127\.0\.0\.1 \(got --host 0\.0\.0\.0\)/,
    ],
    [
      ['--open-on-loopback', '--kinds', 'subsequent,load'],
      /load run for a duration .*pass --kinds subsequent/,
    ],
    [['--open-on-loopback', '--every', '5'], /--every must be a duration .* \(got "5"\)/],
    [['--token-file', 'missing-token'], /--token-file missing-token could not be read \(ENOENT\)/],
  ];
  for (const [args, message] of cases) {
    const run = await runCli(['watch', '--port', '0', ...args], { cwd, env, timeoutMs: 10_000 });
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.ok(!run.stderr.includes('serving'), `${args.join(' ')} served /metrics: ${run.stderr}`);
  }
});
