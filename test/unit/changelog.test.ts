/**
 * CHANGELOG.md keeps the Keep a Changelog form the Marketplace and npm pages show: a title, an
 * Unreleased section first, versions as `## [x.y.z] - YYYY-MM-DD`, and under each only the six kinds
 * of change the form names, none empty. Both packages ship it (the VSIX by scripts/package/vsix.ts,
 * the npm package by its `files` and prepack; test/integration/package-*.test.ts open them).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(__dirname, '../..');
const KINDS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

test('CHANGELOG.md is in Keep a Changelog form', () => {
  const text = readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
  const lines = text.split('\n');
  assert.equal(lines[0], '# Changelog');
  assert.match(text, /keepachangelog\.com/);
  const versions = lines.filter((l) => l.startsWith('## '));
  assert.equal(versions[0], '## [Unreleased]', 'Unreleased comes first');
  for (const heading of versions.slice(1))
    assert.match(heading, /^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/, heading);
  let entries = 0;
  for (const [i, line] of lines.entries()) {
    if (line.startsWith('#### ') || /^#{5,} /.test(line)) assert.fail(`too deep: ${line}`);
    if (!line.startsWith('### ')) continue;
    assert.ok(KINDS.includes(line.slice(4)), `"${line}" is not one of ${KINDS.join(', ')}`);
    const next = lines.slice(i + 1).find((l) => l.trim() !== '');
    assert.match(next ?? '', /^- /, `${line} has no entry`);
    entries += 1;
  }
  assert.ok(entries > 0, 'at least one kind of change');
});

test('both packages ship it', () => {
  const cli = JSON.parse(readFileSync(path.join(ROOT, 'packages/cli/package.json'), 'utf8')) as {
    files: string[];
  };
  assert.ok(cli.files.includes('CHANGELOG.md'), 'packages/cli/package.json files');
  assert.match(
    readFileSync(path.join(ROOT, 'scripts/package/cliPrepack.cjs'), 'utf8'),
    /\['CHANGELOG\.md', 'CHANGELOG\.md'\]/,
  );
  assert.match(readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8'), /^!CHANGELOG\.md$/m);
  assert.match(
    readFileSync(path.join(ROOT, 'scripts/package/vsix.ts'), 'utf8'),
    /SHARED_FILES = \[[^\]]*'CHANGELOG\.md'/,
  );
});
