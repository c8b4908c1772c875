/**
 * No import cycle in src/ or webview/ (scripts/check/cycles.ts, run by `npm run check`), and the
 * checker sees one: a throw-away tree with a planted cycle must be reported with its path.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { findCycles, importGraph, sourceFiles } from '../../scripts/check/cycles';

const root = path.resolve(__dirname, '..', '..');

test('src/ and webview/ hold no import cycle', () => {
  const cycles = findCycles(importGraph(sourceFiles(root, ['src', 'webview'])));
  assert.deepEqual(
    cycles.map((c) => c.map((f) => path.relative(root, f)).join(' -> ')),
    [],
  );
});

test('a planted cycle is reported with its path; type-only imports, export-from and folders count', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dbprobe-cycles-'));
  try {
    const write = (file: string, text: string): void => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    // a -> b -> c -> a, through a type-only import and an export-from.
    write('src/a.ts', "import type { B } from './deep/b';\nexport type A = B;\n");
    write('src/deep/b.ts', "export { c as B } from '../c';\n");
    write('src/c.ts', "import { a } from './';\nexport const c = a;\n");
    write('src/index.ts', "export { a } from './a';\n");
    // d -> e, no way back: not a cycle.
    write('src/d.ts', "import { e } from './e';\nexport const d = e;\n");
    write('src/e.ts', "import fs from 'node:fs';\nexport const e = fs;\n");
    const cycles = findCycles(importGraph(sourceFiles(dir, ['src'])));
    assert.equal(cycles.length, 1, JSON.stringify(cycles));
    assert.deepEqual(
      cycles[0]?.map((f) => path.relative(dir, f)),
      ['src/a.ts', 'src/deep/b.ts', 'src/c.ts', 'src/index.ts', 'src/a.ts'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
