/**
 * Closed model: C workers, each on its own connection, issuing queries back to back for D seconds.
 * Reports throughput and service-time percentiles. Connections open before the level's clock starts;
 * a worker whose connection broke (or never opened) reconnects, each failed attempt an error.
 */
import { elapsedUs } from '../clock';
import type { DriverConnection } from '../driver';
import { classifyError } from '../failure';
import { connect, type SampleContext } from '../connection';
import type { TargetSlot } from '../slot';
import { LatencyRecorder } from '../stats';
import { pause } from './pacer';
import { QueryGate } from '../queryGate';
import type { OutcomeSink } from './sink';

/** Bounds on one worker: queries per level, and a pause after a failed connect (no hammering). */
const MAX_QUERIES_PER_WORKER = 50_000_000;
const RECONNECT_PAUSE_MS = 10;
/** A worker whose queries all resolve without I/O would starve timers: it yields this often. */
const YIELD_EVERY_NS = 50_000_000n;

export interface LevelOutcome {
  /** From the level's clock start to its last answer, or to the cut. */
  durationUs: number;
  /** Set when a cancel (or a target that cannot succeed) ended the level before its asked duration. */
  cut?: true;
  stats: LatencyRecorder;
  /** Open model: latency from the intended start. */
  corrected?: LatencyRecorder;
}

export async function runClosedLevel(
  slot: TargetSlot,
  ctx: SampleContext,
  workers: number,
  durationS: number,
  sink: OutcomeSink,
): Promise<LevelOutcome> {
  const { clock } = ctx;
  const stats = new LatencyRecorder();
  const opened = await Promise.allSettled(Array.from({ length: workers }, () => connect(slot, ctx)));
  await sink.ready?.();
  const startNs = clock.nowNs();
  sink.started?.(startNs);
  const endNs = startNs + BigInt(Math.round(durationS * 1e9));
  // When a cancel or a hopeless target ended the level before its time: its rates run to here.
  let cutNs: bigint | undefined;
  // `now`: the last clock reading, a query's answer as a rule (no extra read per query).
  const stop = (now: bigint) => {
    if (now >= endNs) return true;
    if (!ctx.scope.cancelled && !sink.hopeless()) return false;
    cutNs ??= now;
    return true;
  };
  const gates: QueryGate[] = [];
  // The level ends with its last answer: closing its connections afterwards (a round trip each, up
  // to tens of ms for 64 of them on a busy host) is not part of it, as in the open model.
  let lastAnswerNs = startNs;
  // One subscription for the level's queries in flight, not one per query.
  const cancelAll = () => {
    const now = clock.nowNs();
    if (now < endNs) cutNs ??= now;
    gates.forEach((gate) => gate.abandon('cancelled'));
  };
  const subscription = ctx.scope.subscribe(cancelAll);

  const worker = async (first: DriverConnection | undefined): Promise<void> => {
    let conn = first;
    const gate = new QueryGate(clock, ctx.queryMs);
    gates.push(gate);
    let now = clock.nowNs();
    let lastYield = now;
    for (let i = 0; i < MAX_QUERIES_PER_WORKER && !stop(now); i++) {
      if (!conn) {
        const at = clock.nowNs();
        try {
          conn = await connect(slot, ctx);
        } catch (error) {
          if (ctx.scope.cancelled) break;
          stats.recordError();
          sink.failure(at, error);
          await pause(RECONNECT_PAUSE_MS, ctx.scope);
          now = clock.nowNs();
          continue;
        }
      }
      try {
        await gate.run(conn, slot.workload);
        now = gate.endNs;
        const us = elapsedUs(gate.startNs, now);
        stats.record(us);
        sink.success(gate.startNs, us);
      } catch (error) {
        if (ctx.scope.cancelled) break;
        now = clock.nowNs();
        stats.recordError();
        sink.failure(gate.startNs || now, error);
        if (classifyError(error, slot.driver?.classify) !== 'query') {
          void ctx.connections.close(conn);
          conn = undefined;
        }
      }
      if (now - lastYield > YIELD_EVERY_NS) {
        await new Promise((resolve) => setImmediate(resolve));
        now = clock.nowNs();
        lastYield = now;
      }
    }
    if (now > lastAnswerNs) lastAnswerNs = now;
    gate.dispose();
    if (conn) await ctx.connections.close(conn);
  };

  try {
    await Promise.all(opened.map((o) => worker(o.status === 'fulfilled' ? o.value : undefined)));
  } finally {
    ctx.scope.unsubscribe(subscription, cancelAll);
  }
  if (cutNs !== undefined)
    return { durationUs: elapsedUs(startNs, cutNs > lastAnswerNs ? cutNs : lastAnswerNs), cut: true, stats };
  return { durationUs: elapsedUs(startNs, lastAnswerNs), stats };
}
