/**
 * The shape of a benchmark's result file (`bench-results/<bench>.json`): written by rounds.ts, read
 * by the docs generator (scripts/docs/figures.ts). Kept apart so the generator needs no bench code.
 */

export interface BenchFigure {
  name: string;
  /** 'ratio' for a comparison of two sides; a unit ('µs') for a figure that is not one. */
  unit: string;
  about: string;
  value: number;
  /** The 95% interval over rounds. */
  low: number;
  high: number;
  /** Consecutive rounds per resampled block of the interval's bootstrap (absent in older files). */
  blockLength?: number;
  /** The interval's half-width is within the run's tolerance of the figure, and it did not drift. */
  settled: boolean;
  /** The figure over the first and the second half of the rounds (absent in older files). */
  halves?: [number, number];
  /** The halves differ by more than the settled interval's width: the machine changed mid-run. */
  drifted?: boolean;
  /** Measured once (bench:memory, bench:soak): no interval; `low` and `high` are the value. */
  single?: boolean;
}

export interface BenchResult {
  bench: string;
  command: string;
  /** ISO date of the end of the run. */
  date: string;
  seconds: number;
  rounds: number;
  stoppedBy: 'settled' | 'time cap' | 'round cap';
  tolerance: number;
  confidence: number;
  machine: {
    hostname: string;
    cpuModel: string;
    cores: number;
    memoryGiB: number;
    platform: string;
    node: string;
    /** 1, 5 and 15 minute load averages at the start and at the end of the run. */
    loadAverageStart: number[];
    loadAverage: number[];
  };
  figures: BenchFigure[];
  context: Record<string, string | number>;
  /** The run before this one (from `<bench>.previous.json`), when the docs are generated. */
  previous?: BenchResult;
}
