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

/** Integer microseconds between two readings, rounded to the nearest microsecond. */
export function elapsedUs(startNs: bigint, endNs: bigint): number {
  return Number((endNs - startNs + 500n) / 1000n);
}
