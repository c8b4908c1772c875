/**
 * A long `dbprobe watch` keeps its memory flat: 600 runs at a 10 ms interval against the testbed
 * PostgreSQL, the live heap (after a full collection: the watch collects before each status line
 * under --expose-gc) and RSS read from its status lines. It counts no connections and times nothing,
 * so it may run beside other files (scripts/test/groups.ts); the Prometheus checks of the watch are
 * watch-prometheus.test.ts's.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { CLI } from '../helpers/cli';
import { tempDir } from '../helpers/tempDir';
import { testbedEnv } from '../helpers/testbed';

const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

/** The built CLI's watch, with the GC exposed, its stderr kept. */
function startWatch(
  dir: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; stderr: () => string } {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, ['--expose-gc', CLI, 'watch', '--port', '0', ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout!.resume();
  return { child, stderr: () => stderr };
}

test('memory of a long watch stays flat (600 runs at a 10 ms interval)', async () => {
  const dir = tempDir('watch-mem');
  writeFileSync(
    path.join(dir, 'dbprobe.json'),
    JSON.stringify({
      targets: [{ name: 'pg', driver: 'pg', connection: 'env:WATCH_PG_URL' }],
      kinds: ['initial', 'subsequent'],
    }),
  );
  const runs = 600;
  const watch = startWatch(
    dir,
    ['--every', '10ms', '--iterations', '2', '--warmup', '0', '--runs', String(runs), '--open-on-loopback'],
    { WATCH_PG_URL: testbedEnv('DBPROBE_TEST_PG_URL') },
  );
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => watch.child.kill('SIGKILL'), 240_000);
    watch.child.once('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  assert.equal(code, 0, watch.stderr());
  const lines = [
    ...watch.stderr().matchAll(/run (\d+) in \d+ ms, \d+ errors; heap ([\d.]+) MB, rss ([\d.]+) MB/g),
  ].map((m) => ({
    run: Number(m[1]),
    heap: Number(m[2]),
    rss: Number(m[3]),
  }));
  assert.equal(lines.length, runs, 'one status line per run');
  // Live heap after a full collection; the floor of a window ignores one-off transients.
  const floor = (from: number, to: number) => Math.min(...lines.slice(from, to).map((l) => l.heap));
  const early = floor(250, 300);
  const late = floor(runs - 50, runs);
  // RSS climbs for the first ~300 runs (allocator and JIT warm-up), then plateaus.
  const rssEarly = lines[299]!.rss;
  const rssLate = lines[runs - 1]!.rss;
  console.log(
    `memory over ${runs} runs: heap floor ${early} MB (runs 250-300) -> ${late} MB (last 50); rss ${rssEarly} -> ${rssLate} MB`,
  );
  assert.ok(late - early < 1, `the heap floor grew from ${early} MB to ${late} MB over ${runs} runs`);
  assert.ok(rssLate - rssEarly < 20, `rss grew from ${rssEarly} MB to ${rssLate} MB over ${runs} runs`);
});
