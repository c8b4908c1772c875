/**
 * The request schedule (the serverless-latency blog's method): R simulated requests per second for D
 * seconds, each on a new connection (or an idle pooled one) running K consecutive queries. Requests
 * start on time whether or not earlier ones finished. Query 1 includes the connect when the request
 * opens its own connection, like the `initial` kind; queries 2..K are timed alone; a request's total
 * runs from its start to its last answer.
 */
import type { SchedulePlanSpec } from '../../shared/loadPlan';
import { elapsedUs } from '../clock';
import type { DriverConnection } from '../driver';
import { classifyError } from '../failure';
import { connect, query, type SampleContext } from '../connection';
import type { TargetSlot } from '../slot';
import { LatencyRecorder } from '../stats';
import { runPacer } from './pacer';
import type { PlaceShare } from './shares';
import type { LevelHooks } from './sink';
import { StartTally } from './startFigures';

/** Requests in flight at once; a start beyond this is dropped (the target has stopped keeping up). */
const MAX_IN_FLIGHT = 1_000;

export interface RequestSink extends LevelHooks {
  /**
   * A whole request: meant to start at `intendedNs`, issued at `startNs`, `totalUs` from the intended
   * start to its last answer at `endNs`.
   */
  request(
    index: number,
    times: { intendedNs: bigint; startNs: bigint; endNs: bigint },
    totalUs: number,
  ): void;
  failure(index: number, atNs: bigint, error: unknown, times: { intendedNs: bigint; startNs: bigint }): void;
  hopeless(): boolean;
}

export interface ScheduleOutcome {
  positions: LatencyRecorder[];
  /** From each request's intended start (coordinated omission corrected). */
  totals: LatencyRecorder;
  /** From each request's issue: the service time. */
  serviceTotals: LatencyRecorder;
  starts: StartTally;
  startSpanUs: number;
  /** From the first intended start to the last answer, or to the cut. */
  durationUs: number;
  /** Set when a cancel ended the schedule before its last start. */
  cut?: true;
}

export async function runRequestSchedule(
  slot: TargetSlot,
  ctx: SampleContext,
  settings: SchedulePlanSpec,
  sink: RequestSink,
  /** This place's part of the schedule's timetable, when it is spread over several places. */
  share?: PlaceShare,
): Promise<ScheduleOutcome> {
  const { clock } = ctx;
  const positions = Array.from({ length: settings.queries }, () => new LatencyRecorder());
  const totals = new LatencyRecorder();
  const serviceTotals = new LatencyRecorder();
  const starts = new StartTally();
  const pool: DriverConnection[] = [];
  const running = new Set<Promise<void>>();
  await sink.ready?.();
  const firstNs = clock.nowNs();
  sink.started?.(firstNs, starts);
  let lastStartNs = firstNs;
  let lastEndNs = firstNs;

  const request = async (index: number, intendedNs: bigint, startNs: bigint): Promise<void> => {
    let conn: DriverConnection | undefined;
    let broken = false;
    try {
      let mark = startNs;
      conn = settings.connection === 'pooled' ? pool.pop() : undefined;
      conn ??= await connect(slot, ctx);
      for (let k = 0; k < settings.queries; k++) {
        let end = 0n;
        try {
          await query(conn, slot, ctx, (isStart) => {
            if (isStart && k > 0) mark = clock.nowNs();
            else if (!isStart) end = clock.nowNs();
          });
        } catch (error) {
          broken = classifyError(error, slot.driver?.classify) !== 'query';
          throw error;
        }
        positions[k]?.record(elapsedUs(mark, end));
        mark = end;
        if (end > lastEndNs) lastEndNs = end;
        if (k === settings.queries - 1) {
          const totalUs = elapsedUs(intendedNs, end);
          totals.record(totalUs);
          serviceTotals.record(elapsedUs(startNs, end));
          sink.request(index, { intendedNs, startNs, endNs: end }, totalUs);
        }
      }
    } catch (error) {
      if (ctx.scope.cancelled) return;
      totals.recordError();
      serviceTotals.recordError();
      sink.failure(index, clock.nowNs(), error, { intendedNs, startNs });
      if (!conn) broken = true;
    } finally {
      if (conn) {
        if (settings.connection === 'pooled' && !broken && !ctx.scope.cancelled) pool.push(conn);
        else void ctx.connections.close(conn);
      }
    }
  };

  const schedule = await runPacer({
    clock,
    rate: settings.rate,
    durationS: settings.durationS,
    scope: ctx.scope,
    ...(share ? { share } : {}),
    // The first intended start is the schedule's clock start: `--raw` times are from it.
    startNs: firstNs,
    onStart(index, intendedNs) {
      if (running.size >= MAX_IN_FLIGHT || sink.hopeless()) {
        starts.dropped += 1;
        return;
      }
      const startNs = clock.nowNs();
      lastStartNs = startNs;
      starts.issued(elapsedUs(intendedNs, startNs));
      const done = request(index, intendedNs, startNs).finally(() => running.delete(done));
      running.add(done);
    },
  });
  starts.asked = schedule.made;
  // Each request is bounded by its connect and query timeouts, and all end at once on cancel.
  await Promise.all(running);
  await Promise.all(pool.splice(0).map((conn) => ctx.connections.close(conn)));
  const cutAtNs = schedule.cutAtNs;
  if (cutAtNs !== undefined)
    // Cut: its rates are over the time it ran, not over its asked duration.
    return {
      positions,
      totals,
      serviceTotals,
      starts,
      startSpanUs: elapsedUs(firstNs, cutAtNs),
      durationUs: elapsedUs(firstNs, cutAtNs),
      cut: true,
    };
  return {
    positions,
    totals,
    serviceTotals,
    starts,
    startSpanUs: Math.max(Math.round(settings.durationS * 1e6), elapsedUs(firstNs, lastStartNs)),
    durationUs: elapsedUs(firstNs, lastEndNs),
  };
}
