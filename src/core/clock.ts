/** Injectable monotonic clock: the engine reads time only through this, so tests can drive it. */

export interface Clock {
  /** Recorded in the result so readers know how samples were timed. */
  readonly name: string;
  nowNs(): bigint;
}

export const hrtimeClock: Clock = {
  name: 'process.hrtime.bigint',
  nowNs: () => process.hrtime.bigint(),
};

/**
 * Integer microseconds between two readings, rounded to the nearest microsecond (halves up). One
 * BigInt subtraction, then doubles: the BigInt division it replaces allocated three BigInts per
 * sample. Exact while the span is under 2^53 ns (104 days), and a quotient of exactly k + 0.5 is
 * representable, so it rounds as the BigInt form did.
 */
export function elapsedUs(startNs: bigint, endNs: bigint): number {
  return Math.round(Number(endNs - startNs) / 1000);
}

/**
 * For runtimes without process.hrtime (Cloudflare Workers): performance.now() in nanoseconds. Workers
 * advance it only across I/O, which is exactly where a sample starts and ends; the name says which
 * clock timed the run.
 */
export const performanceClock: Clock = {
  name: 'performance.now',
  nowNs: () => BigInt(Math.round(performance.now() * 1_000_000)),
};

export function defaultClock(): Clock {
  return typeof process !== 'undefined' && typeof process.hrtime?.bigint === 'function'
    ? hrtimeClock
    : performanceClock;
}
