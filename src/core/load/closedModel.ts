/**
 * Closed model: C workers, each on its own connection, issuing queries back to back for D seconds.
 * Reports throughput and service-time percentiles. Connections open before the level's clock starts;
 * a worker whose connection broke (or never opened) reconnects, each failed attempt an error.
 */
import { elapsedUs } from '../clock';
import type { DriverConnection } from '../driver';
import { classifyError } from '../failure';
import { connect, query, type SampleContext } from '../kinds';
import type { TargetSlot } from '../slot';
import { LatencyRecorder } from '../stats';
import { pause } from './pacer';
import type { OutcomeSink } from './sink';

/** Bounds on one worker: queries per level, and a pause after a failed connect (no hammering). */
const MAX_QUERIES_PER_WORKER = 50_000_000;
const RECONNECT_PAUSE_MS = 10;
/** A worker whose queries all resolve without I/O would starve timers: it yields this often. */
const YIELD_EVERY_NS = 50_000_000n;

export interface LevelOutcome {
  durationUs: number;
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
  const stop = () => ctx.scope.cancelled || sink.hopeless() || clock.nowNs() >= endNs;

  const worker = async (first: DriverConnection | undefined): Promise<void> => {
    let conn = first;
    let lastYield = clock.nowNs();
    // One stamp per worker, not a closure per query (garbage on the hot path).
    let start: bigint;
    let end: bigint;
    const stamp = (isStart: boolean): void => {
      if (isStart) start = clock.nowNs();
      else end = clock.nowNs();
    };
    for (let i = 0; i < MAX_QUERIES_PER_WORKER && !stop(); i++) {
      if (!conn) {
        const at = clock.nowNs();
        try {
          conn = await connect(slot, ctx);
        } catch (error) {
          if (ctx.scope.cancelled) break;
          stats.recordError();
          sink.failure(at, error);
          await pause(RECONNECT_PAUSE_MS, ctx.scope);
          continue;
        }
      }
      start = 0n;
      end = 0n;
      try {
        await query(conn, slot, ctx, stamp);
        const us = elapsedUs(start, end);
        stats.record(us);
        sink.success(start, us);
      } catch (error) {
        if (ctx.scope.cancelled) break;
        stats.recordError();
        sink.failure(start || clock.nowNs(), error);
        if (classifyError(error, slot.driver?.classify) !== 'query') {
          void ctx.connections.close(conn);
          conn = undefined;
        }
      }
      if (clock.nowNs() - lastYield > YIELD_EVERY_NS) {
        await new Promise((resolve) => setImmediate(resolve));
        lastYield = clock.nowNs();
      }
    }
    if (conn) await ctx.connections.close(conn);
  };

  await Promise.all(opened.map((o) => worker(o.status === 'fulfilled' ? o.value : undefined)));
  return { durationUs: elapsedUs(startNs, clock.nowNs()), stats };
}
