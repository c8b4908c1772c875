/**
 * The benches' grid for latencies (overhead.ts says why): whole microseconds up to EXACT_US, as the
 * engine's clock keeps them, then cells 1% wide; a percentile is read from the counts per cell with
 * each cell's samples spread evenly over it (the grouped-data percentile), the same function for
 * every side a bench compares.
 */

/**
 * Whole microseconds up to EXACT_US (a loopback query and its usual tail), then cells 1% wide (a busy
 * machine's p99 can be milliseconds; 1% there is finer than the noise), up to an hour.
 */
const EXACT_US = 4_096;
const STEP = 1.01;
const CELLS = EXACT_US + Math.ceil(Math.log(3.6e9 / EXACT_US) / Math.log(STEP)) + 1;

function cellOf(us: number): number {
  const whole = Math.max(0, Math.round(us));
  if (whole < EXACT_US) return whole;
  return Math.min(CELLS - 1, EXACT_US + Math.floor(Math.log(whole / EXACT_US) / Math.log(STEP)));
}

/** A cell's lower end and width in µs: a whole microsecond is [us - 0.5, us + 0.5). */
function cellSpan(cell: number): [low: number, width: number] {
  if (cell < EXACT_US) return [cell - 0.5, 1];
  const low = EXACT_US * STEP ** (cell - EXACT_US);
  return [low, low * (STEP - 1)];
}

/** Cells seen in a block and how many samples fell in each (sparse: a block spans few). */
export interface Grid {
  cell: Uint16Array;
  count: Uint16Array;
}

/** Samples on the engine's grid: rounded to the nearest microsecond, as its clock does. */
export function grid(samples: readonly number[]): Grid {
  const counts = new Map<number, number>();
  for (const us of samples) {
    const cell = cellOf(us);
    counts.set(cell, (counts.get(cell) ?? 0) + 1);
  }
  return { cell: Uint16Array.from(counts.keys()), count: Uint16Array.from(counts.values()) };
}

/**
 * The grouped-data percentile of one side's counts pooled over the rounds (`side` picks its grid
 * from a round: no array is made per call, so a check between rounds leaves little garbage).
 */
export function percentileOf<R>(rounds: readonly R[], side: (round: R) => Grid, p: number): number {
  const pooled = new Uint32Array(CELLS);
  let total = 0;
  for (const round of rounds) {
    const { cell, count } = side(round);
    for (let i = 0; i < cell.length; i++) {
      pooled[cell[i]!]! += count[i]!;
      total += count[i]!;
    }
  }
  const rank = (p / 100) * total;
  let below = 0;
  for (let cell = 0; cell < CELLS; cell++) {
    const count = pooled[cell]!;
    if (count > 0 && below + count >= rank) {
      const [low, width] = cellSpan(cell);
      return low + (width * (rank - below)) / count;
    }
    below += count;
  }
  return NaN;
}
