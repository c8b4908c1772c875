/**
 * scripts/test.sh's settings: under CI, leaving the end-to-end tests out (DBPROBE_SKIP_E2E=1) is an
 * error, not a green run without the extension tested. `--preflight` checks the settings and stops,
 * so this test starts nothing.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';

const script = path.join(__dirname, '..', '..', 'scripts', 'test.sh');

function preflight(env: Record<string, string>): { status: number | null; stderr: string } {
  const { DBPROBE_SKIP_E2E: _skip, CI: _ci, ...rest } = process.env;
  const run = spawnSync('bash', [script, '--preflight'], {
    env: { ...rest, ...env },
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { status: run.status, stderr: run.stderr };
}

test('DBPROBE_SKIP_E2E=1 under CI=true is an error that says why', () => {
  for (const ci of ['true', '1']) {
    const run = preflight({ CI: ci, DBPROBE_SKIP_E2E: '1' });
    assert.equal(run.status, 2, `CI=${ci}: ${run.stderr}`);
    assert.match(run.stderr, /DBPROBE_SKIP_E2E=1 is refused under CI/);
  }
});

test('outside CI, or under CI without the skip, the settings pass', () => {
  assert.equal(preflight({ DBPROBE_SKIP_E2E: '1' }).status, 0);
  assert.equal(preflight({ CI: 'true' }).status, 0);
  assert.equal(preflight({ CI: 'false', DBPROBE_SKIP_E2E: '1' }).status, 0);
});
