/**
 * Cancelling a cold run while it waits for the target to become cold ends within a second, for the
 * idle wait and for a suspend command (whose process is killed). Uses the testbed PostgreSQL.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { createColdPreparer } from '../../src/cold/preparer';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import type { ProbeEvent } from '../../src/shared/events';
import { PLAN_DEFAULTS, type ColdTargetSpec } from '../../src/shared/plan';
import { testbedEnv } from '../helpers/testbed';

async function cancelDuringWait(cold: ColdTargetSpec): Promise<{ cancelMs: number; events: ProbeEvent[] }> {
  const controller = new AbortController();
  const events: ProbeEvent[] = [];
  let abortedAt = 0;
  const run = runPlan(
    {
      ...PLAN_DEFAULTS,
      targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG', cold }],
      kinds: ['cold'],
      cold: { samples: 3, pauseMs: 0, suspendTimeoutMs: 60_000 },
    },
    {
      registry: createRegistry(),
      resolveConnection: async () => testbedEnv('DBPROBE_TEST_PG_URL'),
      tool: { name: 'test', version: '0' },
      signal: controller.signal,
      watchClient: false,
      cold: createColdPreparer({ resolveReference: async () => undefined, allowCommands: true }),
      onEvent: (event) => {
        events.push(event);
        // Cancel a moment into the first wait, so the wait is really under way.
        if (event.type === 'wait' && abortedAt === 0)
          setTimeout(() => {
            abortedAt = performance.now();
            controller.abort();
          }, 300);
      },
    },
  );
  const result = await run;
  const cancelMs = performance.now() - abortedAt;
  assert.ok(abortedAt > 0, 'a wait event arrived');
  assert.equal(result.state, 'cancelled');
  return { cancelMs, events };
}

test('cancel during an idle wait ends the run within a second', async () => {
  const { cancelMs, events } = await cancelDuringWait({ mode: 'idle-wait', idleMs: 30_000 });
  assert.ok(cancelMs < 1_000, `ended ${Math.round(cancelMs)} ms after cancel`);
  const wait = events.find((e) => e.type === 'wait');
  assert.equal(wait?.type === 'wait' && wait.step, 'idle');
  assert.equal(wait?.type === 'wait' && wait.totalMs, 30_000);
  assert.ok(!events.some((e) => e.type === 'sample'), 'no sample was taken before the wait ended');
});

test('cancel while the suspend command runs ends within a second and kills the command', async () => {
  const marker = `dbprobe-cold-cancel-${process.pid}`;
  // A long-running command with a unique argument, so its process can be found and checked.
  const { cancelMs, events } = await cancelDuringWait({
    mode: 'command',
    command: [process.execPath, '-e', 'setTimeout(() => {}, 30000)', marker],
  });
  assert.ok(cancelMs < 1_000, `ended ${Math.round(cancelMs)} ms after cancel`);
  const wait = events.find((e) => e.type === 'wait');
  assert.equal(wait?.type === 'wait' && wait.step, 'command');
  await new Promise((r) => setTimeout(r, 700));
  assert.deepEqual(processesWith(marker), [], 'the suspend command was killed');
});

function processesWith(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSafe('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const file = `/proc/${entry}/cmdline`;
    try {
      if (existsSync(file) && readFileSync(file, 'utf8').includes(text)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
