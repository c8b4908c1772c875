/** `dbprobe run --rtt`: a bad list is a usage error before anything is probed, saying what to give. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configDir, runCli } from '../helpers/cli';

const CONFIG = { targets: [{ name: 'pg', driver: 'pg', connection: 'env:DBPROBE_NO_SUCH_URL' }] };

test('--rtt refuses a list it cannot read (exit 2) and usage names the flag and its defaults', async () => {
  const bad = await runCli(['run', '--rtt', '1,fast'], { cwd: configDir(CONFIG) });
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    /--rtt: "fast" is not a round-trip time; give 1 to 12 round-trip times in milliseconds/,
  );
  const empty = await runCli(['run', '--rtt', ','], { cwd: configDir(CONFIG) });
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /--rtt is empty/);
  const usage = await runCli(['run', '--help'], { cwd: configDir(CONFIG) });
  assert.match(
    usage.stdout + usage.stderr,
    /--rtt +RTTs in ms .*"From where your app runs".*\n.*default 1,10,30,80,150/,
  );
});
