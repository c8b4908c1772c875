/**
 * The per-run sources of the database's own time (EXPLAIN ANALYZE, pg_stat_statements,
 * performance_schema, opLatencies, commandstats): each target whose driver reads one gets a
 * connection of its own, opened before a kind's samples and closed after them, so no sample waits
 * for it. A source the server refuses (a privilege, an extension, a timeout) becomes the
 * measurement's note: the run stays green.
 */
import type { Redactor } from '../shared/redact';
import type { ServerTime, ServerTimeSource } from '../shared/serverTime';
import { runWithDeadline } from './deadline';
import { connect, type SampleContext } from './connection';
import type { DriverConnection, ServerTimeRun } from './driver';
import type { MeasurementState } from './measurementState';
import type { TargetSlot } from './slot';

interface Reading {
  state: MeasurementState;
  conn?: DriverConnection;
  run?: ServerTimeRun;
  /** Set when the start already failed: the note to record. */
  note?: ServerTime;
}

/** Opens the readings of a kind's targets; call the returned function after the kind's samples. */
export async function startServerTimeRuns(
  slots: readonly TargetSlot[],
  states: readonly MeasurementState[],
  ctx: SampleContext,
  redactor: Redactor,
): Promise<() => Promise<void>> {
  const readings: Reading[] = [];
  for (const [i, slot] of slots.entries()) {
    const state = states[i];
    const support = slot.driver?.serverTime;
    if (!state?.serverTime || support?.per !== 'run' || slot.setupError !== undefined) continue;
    readings.push(await start(slot, state, ctx, redactor, support.sources));
  }
  return async () => {
    for (const reading of readings) await finish(reading, ctx, redactor);
  };
}

async function start(
  slot: TargetSlot,
  state: MeasurementState,
  ctx: SampleContext,
  redactor: Redactor,
  sources: readonly ServerTimeSource[],
): Promise<Reading> {
  let conn: DriverConnection | undefined;
  try {
    conn = await connect(slot, ctx);
    const open = conn.serverTimeRun?.bind(conn);
    if (!open) return { state, conn, note: { note: 'not given by this connection' } };
    const run = await runWithDeadline(() => open(slot.workload), deadline(ctx));
    return { state, conn, run };
  } catch (error) {
    return { state, ...(conn ? { conn } : {}), note: refused(error, redactor, sources) };
  }
}

async function finish(reading: Reading, ctx: SampleContext, redactor: Redactor): Promise<void> {
  const { state, conn, run } = reading;
  try {
    if (reading.note) state.serverTime?.setReading(reading.note);
    else if (run) {
      const figure = await runWithDeadline(() => run.finish(), deadline(ctx));
      state.serverTime?.setReading(figure);
    }
  } catch (error) {
    state.serverTime?.setReading(refused(error, redactor, []));
  } finally {
    if (conn) await ctx.connections.close(conn);
  }
}

function deadline(ctx: SampleContext) {
  return { timeoutMs: ctx.queryMs, scope: ctx.scope, what: 'server time', setting: 'timeouts.queryMs' };
}

/** The note of a source that could not be read, its error redacted and on one line. */
function refused(error: unknown, redactor: Redactor, sources: readonly ServerTimeSource[]): ServerTime {
  const message = error instanceof Error ? error.message : String(error);
  const tried = sources.length > 0 ? ` (${sources.join(', ')})` : '';
  return {
    note: `could not read the database's own time${tried}: ${redactor.quote(message, { maxChars: 200 })}`,
  };
}
