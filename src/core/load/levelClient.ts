/**
 * A load level's client verdict: was the probing thread the limit at this level?
 *
 * Closed model: its thread was busy (on the CPU whenever the host let it run) at CPU_LIMIT_PERCENT or
 * more, or its event loop was (a host that takes the CPU away: levelBusy.ts). Open model: the CPU
 * share alone says little, since the pacer waits out the last millisecond before each start with setImmediate (at 2,000/s and up it never sleeps: 98% CPU measured at
 * 2,000/s on the testbed, schedule kept). There the client is the limit when its own loop fell
 * behind the schedule: most starts (MIN_LOOP_LATE_SHARE) were handed over by the pacer more than
 * LATE_AFTER_US after their time while the thread was busy (or at least 1% of them, with the lateness
 * p99 past what host preemption explains: BACKLOG_*), and the level missed its bar (start
 * lateness p99 within LATE_AFTER_US and KEPT_RATE_SHARE of the rate). A schedule that fell behind
 * while the pacer was on time waited for busy connections: the database's limit, which the level
 * reports as "did not keep up", not here. Host preemption now and then (a busy shared machine) makes
 * a few starts late, not most of them.
 */
import type { StartFigures } from '../../shared/loadResult';
import { levelClientLimit } from '../clientWatch';
import { LATE_AFTER_US } from './startFigures';

/** The bar an open level keeps: this share of the asked rate, lateness p99 within 1 ms. */
export const KEPT_RATE_SHARE = 0.995;
/** Share of a level's starts the pacer handed over late for its own loop to count as behind. */
export const MIN_LOOP_LATE_SHARE = 0.5;
/**
 * Or a smaller share (enough by itself to put the p99 over the bar: 1%) when the lateness p99 is
 * longer than host preemption can make it: a thread that keeps up with headroom catches up within a
 * scheduler slice or two, so starts late by more than this mean its loop could not drain the
 * backlog, its capacity at the rate (seen: 20,000/s over one thread reached 19,998/s with start
 * lateness p99 182 ms at 99% CPU, and was called nothing).
 */
export const BACKLOG_LOOP_LATE_SHARE = 0.01;
export const BACKLOG_LATENESS_US = 50_000;

/** An open level's start figures with the count of starts its own loop handed over late. */
export interface OpenStarts extends StartFigures {
  loopLate: number;
}

/** How the schedule fell behind through the client's own loop, in words, or undefined. */
export function loopShortfall(starts: OpenStarts): string | undefined {
  if (starts.asked === 0) return undefined;
  const late = starts.latenessP99Us > LATE_AFTER_US;
  const short = starts.achievedRate < starts.askedRate * KEPT_RATE_SHARE;
  const loopShare = starts.loopLate / starts.asked;
  if (!late && !short) return undefined;
  const backlog = starts.latenessP99Us > BACKLOG_LATENESS_US && loopShare >= BACKLOG_LOOP_LATE_SHARE;
  if (loopShare < MIN_LOOP_LATE_SHARE && !backlog) return undefined;
  const rate = `${count(starts.achievedRate)}/s of ${count(starts.askedRate)}/s achieved`;
  return `its schedule fell behind (${Math.round(loopShare * 100)}% of starts reached over 1 ms late by its own loop; start lateness p99 ${lateness(starts.latenessP99Us)}, ${rate})`;
}

/**
 * The level's `clientLimited` sentence, or undefined. `starts`: the open model's start figures (the
 * thread's own share of the arrivals when the level is spread over threads).
 */
export function levelClientVerdict(
  cpuPercent: number,
  who: string,
  starts?: OpenStarts,
  loopPercent?: number,
): string | undefined {
  const busy = levelClientLimit(cpuPercent, who, loopPercent);
  if (!busy || !starts) return busy;
  const behind = loopShortfall(starts);
  return behind ? `${busy}; ${behind}` : undefined;
}

function count(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** "1,580 ms", "2.3 ms", "850 µs": as many digits as the size needs. */
function lateness(us: number): string {
  if (us >= 10_000) return `${count(us / 1000)} ms`;
  if (us >= 1_000) return `${(us / 1000).toFixed(1)} ms`;
  return `${Math.round(us)} µs`;
}
