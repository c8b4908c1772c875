/**
 * Saved runs on disk (src/extension/runs/nodeFiles.ts): Node's fs, so a run stopped by a closing
 * window can still save; whole files only, even when the writer dies half-way.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { createFolder, readBytes, removeFile, writeBytesWhole } from '../../src/extension/runs/nodeFiles';

const text = (value: string) => new TextEncoder().encode(value);

test('a file is written whole, replaced whole, and read back; no temporary file stays', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dbprobe-runfiles-'));
  try {
    const folder = path.join(root, 'workspace', 'runs');
    await createFolder(folder);
    await createFolder(folder);
    const file = path.join(folder, 'index.json');
    await writeBytesWhole(file, text('[1]'));
    await writeBytesWhole(file, text('[1,2]'));
    assert.equal(new TextDecoder().decode(await readBytes(file)), '[1,2]');
    assert.deepEqual(fs.readdirSync(folder), ['index.json'], 'only the file itself');
    await removeFile(file);
    await removeFile(file);
    assert.deepEqual(fs.readdirSync(folder), [], 'removed; removing again is no error');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a write that cannot finish leaves the old file as it was and no temporary file', async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dbprobe-runfiles-'));
  try {
    const file = path.join(root, 'index.json');
    await writeBytesWhole(file, text('old'));
    // A directory where the new file must go: the rename fails after the temporary file was written.
    const blocked = path.join(root, 'blocked.json');
    fs.mkdirSync(blocked);
    fs.writeFileSync(path.join(blocked, 'x'), 'x');
    await assert.rejects(writeBytesWhole(blocked, text('new')));
    assert.equal(fs.readFileSync(file, 'utf8'), 'old');
    assert.deepEqual(fs.readdirSync(root).sort(), ['blocked.json', 'index.json']);
    await assert.rejects(writeBytesWhole(path.join(root, 'missing', 'a.json'), text('x')));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
