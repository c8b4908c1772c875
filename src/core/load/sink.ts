import type { StartTally } from './startFigures';

/** What a level tells whoever watches it: when its clock starts, and the tally of its starts. */
export interface LevelHooks {
  /**
   * Awaited once the level's connections are open, just before its clock starts: a fan-out waits
   * here for the common start time, so every place starts the level together.
   */
  ready?(): Promise<void>;
  /** The level's clock started at `startNs`; `starts` is its start tally (fixed-rate levels only). */
  started?(startNs: bigint, starts?: StartTally): void;
}

/** One fixed-rate request's clock readings, for the per-request output (`--raw`). */
export interface RequestTimes {
  intendedNs: bigint;
  /** Absent when the request was never issued (a connect failed first). */
  startNs?: bigint;
  endNs: bigint;
}

/** Where the load schedulers hand each outcome: the kind's glue records it (see durationRun.ts). */
export interface OutcomeSink extends LevelHooks {
  /**
   * A query that answered: timed from `startNs`, `us` later the answer was in. The open model gives
   * the intended start here (corrected latency) and the request's own readings in `times`.
   */
  success(startNs: bigint, us: number, times?: RequestTimes): void;
  /** A query or connect that failed at `atNs`. */
  failure(atNs: bigint, error: unknown, times?: RequestTimes): void;
  /** True once the target cannot succeed (wrong credentials, unknown host): stop early. */
  hopeless(): boolean;
}
