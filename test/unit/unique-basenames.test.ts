/**
 * No two source files in src/ and webview/ share a base name (Quick Open finds one file per name),
 * except the bundles' entry points, which docs/architecture.md lists under "File names and entry
 * points". An entry point missing from that list, or a second `runView.ts`, fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { sourceFiles } from '../../scripts/check/cycles';

const root = path.resolve(__dirname, '..', '..');

/** The paths in backticks in the architecture page's entry-point section. */
function listedEntryPoints(): Set<string> {
  const page = readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
  const section = page.split(/^#{2,3} /m).find((s) => s.startsWith('File names and entry points')) ?? '';
  return new Set([...section.matchAll(/`((?:src|webview)\/[^`]+\.ts)`/g)].map((m) => m[1] ?? ''));
}

/** Base names held by more than one file, with the files that are not listed entry points. */
function sharedBaseNames(files: readonly string[], entryPoints: ReadonlySet<string>): string[] {
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const name = path.basename(file);
    byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  return [...byName.values()]
    .filter((same) => same.length > 1 && !same.every((f) => entryPoints.has(f)))
    .map((same) => same.join(', '));
}

test('no two source files share a base name, but the listed entry points', () => {
  const entryPoints = listedEntryPoints();
  assert.ok(entryPoints.has('src/extension/main.ts'), 'the entry-point list is found');
  const files = sourceFiles(root, ['src', 'webview']).map((f) => path.relative(root, f));
  assert.ok(files.length > 100, 'the source files are found');
  assert.deepEqual(sharedBaseNames(files, entryPoints), []);
});

test('a shared base name is caught; an unlisted main.ts too', () => {
  const listed = new Set(['src/cli/main.ts', 'webview/main.ts']);
  assert.deepEqual(
    sharedBaseNames(
      ['src/cli/main.ts', 'webview/main.ts', 'src/a/runView.ts', 'webview/runView.ts', 'src/b.ts'],
      listed,
    ),
    ['src/a/runView.ts, webview/runView.ts'],
  );
  assert.deepEqual(sharedBaseNames(['src/cli/main.ts', 'src/runner/main.ts'], listed), [
    'src/cli/main.ts, src/runner/main.ts',
  ]);
});
