/**
 * A CPU-bound embedded run lowers the priority of its own probe thread only (Linux: per-thread nice),
 * never the editor's threads; network runs keep normal priority.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { EMBEDDED_NICE, runsEmbedded } from '../../src/probeThread/threadPriority';

const ROOT = path.resolve(__dirname, '..', '..');

/** Field 19 of /proc/<pid>/task/<tid>/stat, after the parenthesised command name. */
function niceOf(tid: number): number {
  const stat = fs.readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[16]);
}

test('only file: targets make a run embedded', () => {
  assert.equal(runsEmbedded(['file:/tmp/x.db']), true);
  assert.equal(runsEmbedded(['postgres://u:p@127.0.0.1/db', ' FILE:relative.db']), true);
  assert.equal(runsEmbedded(['postgres://u:p@127.0.0.1/db', 'redis://127.0.0.1:6379']), false);
  assert.equal(runsEmbedded(['libsql://db.example.com', 'https://x.turso.io']), false);
});

test(
  'the probe thread lowers its own nice value and leaves the main thread alone',
  { skip: process.platform !== 'linux' },
  async () => {
    const before = os.getPriority(process.pid);
    const worker = new Worker(path.join(ROOT, 'test', 'fixtures', 'tsxWorker.mjs'), {
      workerData: { entry: path.join(ROOT, 'test', 'fixtures', 'threadPriorityEntry.ts') },
    });
    try {
      const reply = await new Promise<{ lowered: boolean; tid: number }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      assert.equal(reply.lowered, true, 'lowered on Linux');
      assert.notEqual(reply.tid, process.pid, 'a thread of its own');
      assert.equal(niceOf(reply.tid), before + EMBEDDED_NICE, 'the probe thread runs at the lower priority');
      assert.equal(os.getPriority(process.pid), before, "the main thread's priority is unchanged");
      assert.equal(niceOf(process.pid), before, "the main thread's own task is unchanged");
    } finally {
      worker.postMessage('done');
      await worker.terminate();
    }
  },
);
