/**
 * test/helpers/dirLock.ts: processes that take the lock at once hold it one after another (their
 * start and end lines never interleave), and a lock whose holder died is taken over.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { withDirLock } from '../helpers/dirLock';
import { tempDir } from '../helpers/tempDir';

const HOLDER = `
const fs = require('node:fs');
const { withDirLock } = require(${JSON.stringify(path.join(__dirname, '..', 'helpers', 'dirLock.ts'))});
const [lock, log, name] = process.argv.slice(1);
withDirLock(lock, 20000, () => {
  fs.appendFileSync(log, 'start ' + name + '\\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
  fs.appendFileSync(log, 'end ' + name + '\\n');
});
`;

function holder(lock: string, log: string, name: string): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', HOLDER, lock, log, name], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve) => child.on('exit', resolve));
}

test('three processes asking at once hold the lock one after another', async () => {
  const dir = tempDir('dir-lock');
  const lock = path.join(dir, 'build.lock');
  const log = path.join(dir, 'log');
  const codes = await Promise.all(['a', 'b', 'c'].map((name) => holder(lock, log, name)));
  assert.deepEqual(codes, [0, 0, 0]);
  const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
  assert.equal(lines.length, 6, lines.join(' | '));
  for (let i = 0; i < lines.length; i += 2) {
    const name = lines[i]!.split(' ')[1];
    assert.deepEqual([lines[i], lines[i + 1]], [`start ${name}`, `end ${name}`], lines.join(' | '));
  }
  assert.ok(!fs.existsSync(lock), 'the lock is gone once the last holder is done');
});

test('a lock left by a process that exited is taken over', () => {
  const lock = path.join(tempDir('dir-lock'), 'build.lock');
  fs.mkdirSync(lock);
  // A pid no live process has: the highest a 32-bit Linux pid_max allows, plus one.
  fs.writeFileSync(path.join(lock, 'pid'), String(4_194_305));
  const started = Date.now();
  assert.equal(
    withDirLock(lock, 5_000, () => 'ran'),
    'ran',
  );
  assert.ok(Date.now() - started < 2_000, 'taken over at once, not after the wait');
});
