/**
 * Open model: queries arrive at a fixed rate for D seconds and share N connections. A query that
 * finds every connection busy waits in line; its latency is counted from its intended start, so a
 * stall shows in every query it delayed (coordinated omission corrected), while the uncorrected
 * figure (from the moment the query was issued) is kept beside it. A full line drops the start.
 */
import { elapsedUs } from '../clock';
import type { DriverConnection } from '../driver';
import { classifyError } from '../failure';
import { connect, query, type SampleContext } from '../connection';
import type { TargetSlot } from '../slot';
import { LatencyRecorder } from '../stats';
import type { LevelOutcome } from './closedModel';
import { pause, runPacer } from './pacer';
import type { PlaceShare } from './shares';
import type { OutcomeSink } from './sink';
import { LATE_AFTER_US, StartTally } from './startFigures';

/** Waiting starts kept: ten seconds' worth, within fixed bounds. */
const MIN_QUEUE = 1_000;
const MAX_QUEUE = 100_000;
const RECONNECT_PAUSE_MS = 100;
const LATE_AFTER_NS = BigInt(LATE_AFTER_US * 1000);

export interface OpenLevelOutcome extends LevelOutcome {
  corrected: LatencyRecorder;
  starts: StartTally;
  /** From the first intended start to the last start issued (or to the cut). */
  startSpanUs: number;
  /**
   * Starts the pacer itself handed over more than LATE_AFTER_US after their intended time: the
   * probing thread's own loop was behind (its work, or the host taking its core), not the connections.
   */
  loopLate: number;
}

export interface OpenLevelSettings {
  /** Arrivals per second of the whole level (all places together when `share` is set). */
  rate: number;
  connections: number;
  durationS: number;
  /** This place's part of the level's timetable, when the level is spread over several places. */
  share?: PlaceShare;
}

export async function runOpenLevel(
  slot: TargetSlot,
  ctx: SampleContext,
  settings: OpenLevelSettings,
  sink: OutcomeSink,
): Promise<OpenLevelOutcome> {
  const { rate, connections, durationS, share } = settings;
  const { clock } = ctx;
  const stats = new LatencyRecorder();
  const corrected = new LatencyRecorder();
  const starts = new StartTally();
  const queueCap = Math.min(MAX_QUEUE, Math.max(MIN_QUEUE, Math.ceil(rate * 10)));
  const waiting: bigint[] = [];
  let head = 0;
  const idle: DriverConnection[] = [];
  let live = 0;
  let inFlight = 0;
  let lastIssueNs = 0n;
  let loopLate = 0;
  let onSettled: (() => void) | undefined;
  /** Set when the level is over: a connection freed after that is closed, not parked. */
  let ended = false;

  const opened = await Promise.allSettled(Array.from({ length: connections }, () => connect(slot, ctx)));
  for (const o of opened) if (o.status === 'fulfilled') idle.push(o.value);
  live = idle.length;
  await sink.ready?.();
  const startNs = clock.nowNs();
  sink.started?.(startNs, starts);

  const nextWaiting = (): bigint | undefined => {
    if (head >= waiting.length) return undefined;
    const intended = waiting[head];
    head += 1;
    if (head > 4096 && head * 2 > waiting.length) {
      waiting.splice(0, head);
      head = 0;
    }
    return intended;
  };
  const waitingCount = () => waiting.length - head;

  /** A connection is free: serve the oldest waiting start, or park it. */
  const release = (conn: DriverConnection): void => {
    if (ended) return void ctx.connections.close(conn);
    const intended = ctx.scope.cancelled ? undefined : nextWaiting();
    if (intended === undefined) {
      idle.push(conn);
      if (inFlight === 0) onSettled?.();
    } else issue(conn, intended);
  };

  const replace = (): void => {
    live += 1;
    const at = clock.nowNs();
    connect(slot, ctx).then(release, async (error: unknown) => {
      if (ctx.scope.cancelled) return;
      sink.failure(at, error);
      stats.recordError();
      await pause(RECONNECT_PAUSE_MS, ctx.scope);
      live -= 1;
      if (waitingCount() > 0 && !sink.hopeless()) replace();
      else if (inFlight === 0) onSettled?.();
    });
  };

  const issue = (conn: DriverConnection, intendedNs: bigint): void => {
    inFlight += 1;
    let start = 0n;
    let end = 0n;
    query(conn, slot, ctx, (isStart) => {
      if (isStart) start = clock.nowNs();
      else end = clock.nowNs();
    }).then(
      () => {
        inFlight -= 1;
        starts.issued(elapsedUs(intendedNs, start));
        lastIssueNs = start > lastIssueNs ? start : lastIssueNs;
        const us = elapsedUs(start, end);
        stats.record(us);
        const fromIntendedUs = elapsedUs(intendedNs, end);
        corrected.record(fromIntendedUs);
        // The kind's headline is the corrected figure: the time a caller arriving on schedule waited.
        sink.success(intendedNs, fromIntendedUs, { intendedNs, startNs: start, endNs: end });
        release(conn);
      },
      (error: unknown) => {
        inFlight -= 1;
        if (ctx.scope.cancelled) return onSettled?.();
        if (start !== 0n) starts.issued(elapsedUs(intendedNs, start));
        stats.recordError();
        corrected.recordError();
        const failedNs = clock.nowNs();
        sink.failure(start || failedNs, error, { intendedNs, startNs: start || undefined, endNs: failedNs });
        if (classifyError(error, slot.driver?.classify) === 'query') return release(conn);
        void ctx.connections.close(conn);
        live -= 1;
        replace();
      },
    );
  };

  const schedule = await runPacer({
    clock,
    rate,
    durationS,
    scope: ctx.scope,
    ...(share ? { share } : {}),
    // The level's clock and its timetable start together: `--raw` times are from the same origin.
    startNs,
    onStart(_index, intendedNs) {
      // One clock read a start: whether the loop came back to the schedule in time (the client's share
      // of a start's lateness; waiting for a busy connection afterwards is the database's).
      if (clock.nowNs() - intendedNs > LATE_AFTER_NS) loopLate += 1;
      if (sink.hopeless()) {
        starts.dropped += 1;
        return;
      }
      const conn = idle.pop();
      if (conn) return issue(conn, intendedNs);
      if (waitingCount() >= queueCap) {
        starts.dropped += 1;
        return;
      }
      waiting.push(intendedNs);
      if (live < connections) replace();
    },
  });
  starts.asked = schedule.made;

  // Let the line drain, but no longer than one query timeout after the schedule ended; a cancel
  // ends the wait at once (what waits in line then is never issued).
  if (!ctx.scope.cancelled && (inFlight > 0 || waitingCount() > 0)) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ctx.queryMs);
      function done() {
        clearTimeout(timer);
        ctx.scope.unsubscribe(slot, done);
        onSettled = undefined;
        resolve();
      }
      onSettled = () => {
        if (ctx.scope.cancelled || (inFlight === 0 && (waitingCount() === 0 || live === 0))) done();
      };
      const slot = ctx.scope.subscribe(done);
    });
  }
  ended = true;
  starts.dropped += waitingCount();
  waiting.length = 0;
  head = 0;
  const endNs = clock.nowNs();
  await Promise.all(idle.splice(0).map((conn) => ctx.connections.close(conn)));
  const cutAtNs = schedule.cutAtNs;
  return {
    // A cut level ran until the cut: its rates are over that time, not over its asked duration.
    durationUs: elapsedUs(startNs, cutAtNs ?? endNs),
    stats,
    corrected,
    starts,
    startSpanUs:
      cutAtNs === undefined
        ? Math.max(Math.round(durationS * 1e6), elapsedUs(startNs, lastIssueNs || startNs))
        : elapsedUs(startNs, cutAtNs),
    loopLate,
    ...(cutAtNs !== undefined ? { cut: true } : {}),
  };
}
