/**
 * The scratch table, key or collection of a workload preset: made and seeded before the first
 * sample, dropped after the last one, even when the run failed or was cancelled. The drop runs on its
 * own connection, under its own time limit, outside the run's cancellation: a cancelled run must
 * still clean up after itself.
 */
import { WORKLOAD_PRESETS } from '../shared/workloadPresets';
import type { Clock } from './clock';
import { CancelScope, runWithDeadline } from './deadline';
import { withHint } from './failure';
import { ConnectionTracker, connect, type SampleContext } from './connection';
import type { TargetSlot } from './slot';
import { prepareWorkload } from './workloads';

/** The longest a drop may take, whatever the run's own limits were. */
const TEARDOWN_MS = 15_000;

/** What to do when a workload preset cannot run here: the workload setting, not the connection. */
export const WORKLOAD_HINT =
  'This is the target\'s workload, not its connection: pick a "workload" preset that fits the driver (or a "query" of your own); presets other than select-1 create and fill a scratch table, which needs a user allowed to create tables and write.';

/** Applies each target's preset: the sample's statement and a short label for the result. */
export function applyPresets(slots: TargetSlot[], runId: string): void {
  for (const [index, slot] of slots.entries()) {
    const preset = slot.spec.workload;
    const info = slot.driver?.info;
    if (!preset || !info || slot.setupError !== undefined) continue;
    try {
      // The run's id and the target's place: two targets (or two runs) never share a scratch.
      slot.preset = prepareWorkload(preset, info, `${runId.slice(0, 8)}t${index}`);
      slot.workload = slot.preset.run;
      slot.info.query = `workload ${preset}: ${WORKLOAD_PRESETS[preset].label}`;
    } catch (error) {
      slot.setupError = withHint(error, WORKLOAD_HINT);
    }
  }
}

/** Creates and seeds every scratch; a target whose setup failed is not probed. */
export async function setUpScratch(slots: readonly TargetSlot[], ctx: SampleContext): Promise<void> {
  for (const slot of slots) {
    const statements = slot.preset?.setup ?? [];
    if (statements.length === 0 || slot.setupError !== undefined) continue;
    try {
      await runStatements(slot, statements, ctx, false);
    } catch (error) {
      slot.setupError = error;
    }
  }
}

/** Drops every scratch; returns one message per target whose drop failed. */
export async function tearDownScratch(
  slots: readonly TargetSlot[],
  clock: Clock,
  connectMs: number,
): Promise<{ target: string; error: unknown; scratch: string }[]> {
  const problems: { target: string; error: unknown; scratch: string }[] = [];
  const withScratch = slots.filter((s) => (s.preset?.teardown.length ?? 0) > 0);
  if (withScratch.length === 0) return problems;
  const scope = new CancelScope(AbortSignal.timeout(TEARDOWN_MS));
  const connections = new ConnectionTracker();
  const ctx: SampleContext = {
    clock,
    scope,
    connectMs: Math.min(connectMs, TEARDOWN_MS),
    queryMs: TEARDOWN_MS,
    connections,
  };
  try {
    for (const slot of withScratch) {
      try {
        await runStatements(slot, slot.preset?.teardown ?? [], ctx, true);
      } catch (error) {
        problems.push({ target: slot.spec.name, error, scratch: slot.preset?.scratch ?? 'scratch' });
      }
    }
  } finally {
    scope.dispose();
    await connections.closeAll();
  }
  return problems;
}

/** One connection, the statements in order; `all`: try every statement even after one failed. */
async function runStatements(
  slot: TargetSlot,
  statements: string[],
  ctx: SampleContext,
  all: boolean,
): Promise<void> {
  const conn = await connect(slot, ctx);
  let first: unknown;
  try {
    for (const statement of statements) {
      try {
        await runWithDeadline(() => conn.query(statement), {
          timeoutMs: ctx.queryMs,
          scope: ctx.scope,
          what: 'scratch setup',
          setting: 'timeouts.queryMs',
          onAbandon: () => conn.destroy(),
        });
      } catch (error) {
        // The connection worked; the workload's own statements did not.
        if (!all) throw withHint(error, WORKLOAD_HINT, slot.driver?.classify?.bind(slot.driver));
        first ??= error;
      }
    }
  } finally {
    await ctx.connections.close(conn);
  }
  if (first !== undefined) throw first;
}
