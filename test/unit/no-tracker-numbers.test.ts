/**
 * Code says why in its own words: a comment that points at a tracker's number ("see issue N") says
 * nothing to a reader without the tracker, and goes stale when the work is renumbered or moved. So no
 * file of the source, the tests, the scripts or the build names one.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { filesUnder } from '../helpers/sourceFiles';

const ROOT = path.join(__dirname, '..', '..');
const FOLDERS = ['src', 'test', 'scripts', 'webview'];
const FILES = ['esbuild.js'];
/** The word, a space and a number, "#" or not, any case (built from parts: this file names none). */
const TRACKER_NUMBER = new RegExp(`\\b${'iss'}ue\\s+#?\\d`, 'i');

test('no source, test, script or build file names a tracker number', () => {
  const files = [
    ...FOLDERS.flatMap((folder) =>
      filesUnder(
        path.join(ROOT, folder),
        /\.(ts|tsx|js|mjs|cjs)$/,
        (dir) => path.basename(dir) === 'node_modules',
      ),
    ),
    ...FILES.map((file) => path.join(ROOT, file)),
  ];
  assert.ok(files.length > 100, `scanned ${files.length} files`);
  const found = files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((text, i) =>
        TRACKER_NUMBER.test(text) ? [`${path.relative(ROOT, file)}:${i + 1}: ${text.trim()}`] : [],
      ),
  );
  assert.deepEqual(found, [], 'say why in words instead');
});
