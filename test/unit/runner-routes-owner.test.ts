/**
 * The runner contract has one caller: the runner's routes are named in src/shared/runnerApi.ts,
 * matched by the runner (src/runner/) and called only by the runner client
 * (src/places/runnerClient.ts), whose cancel only runnerPlace sends. No other file spells a route or
 * sends a cancel, so the route, its grace and the silence rule stay in one place.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { filesUnder } from '../helpers/sourceFiles';

const SRC = path.resolve(__dirname, '../../src');

/** The code of a file without its comments (a comment may name a route). */
function code(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

const files = filesUnder(SRC).map((file) => ({
  rel: path.relative(SRC, file).split(path.sep).join('/'),
  code: code(file),
}));

test('only the runner client calls the routes, and only runnerPlace sends a cancel', () => {
  const found = (pattern: RegExp) => files.filter((f) => pattern.test(f.code)).map((f) => f.rel);
  assert.deepEqual(found(/cancelRemoteRun\(|RUNNER_ROUTES\.cancel\(/), ['places/runnerClient.ts']);
  assert.deepEqual(found(/\bcancelRemoteRun\b/), ['places/runnerClient.ts', 'places/runnerPlace.ts']);
  assert.deepEqual(
    found(/\bfetchRunnerHealth\b|\brunRemote\b|\bcancelRemoteRun\b/).filter((f) => !f.startsWith('places/')),
    ['cli/runnerPreflight.ts', 'extension/runners/health.ts'],
    'outside src/places only the health check is asked directly, through the client',
  );
  // A message may name the health route; only the client fetches any route.
  const outsideRunner = (list: string[]) => list.filter((f) => !f.startsWith('runner/'));
  assert.deepEqual(outsideRunner(found(/RUNNER_ROUTES\.(runs|cancel)\b/)), ['places/runnerClient.ts']);
  assert.deepEqual(
    outsideRunner(
      files.filter((f) => /\bfetch\(/.test(f.code) && /\bRUNNER_ROUTES\b/.test(f.code)).map((f) => f.rel),
    ),
    ['places/runnerClient.ts'],
  );
  assert.deepEqual(found(/['"`]\/v1\/(health|runs)/), [], 'no route is spelled by hand');
});
