/** Progress events the engine emits; the CLI, the extension and the runner (as NDJSON) only listen. */
import type { ProbeFailure } from './errors';
import type { ProbeKind } from './plan';
import type { LatencyStats, RunHeader, RunResult, SampleReasons, SampleRecord } from './result';

export type SamplePhase = 'warmup' | 'measure';

export type ColdWaitStep = 'suspend' | 'poll' | 'idle' | 'command' | 'pause';

export type ProbeEvent =
  | {
      type: 'start';
      runId: string;
      targets: string[];
      kinds: ProbeKind[];
      /** Every sample the run will take, warm-up included; for progress bars. */
      totalSamples: number;
      /** Plan, targets and environment, redacted: enough to rebuild a partial result from samples. */
      header: RunHeader;
    }
  /**
   * A latency (`us`, unrounded) or an error, never both: the sample record's fields, and where it
   * belongs. `unmeasured` (the connect steps the driver cannot see, with why) rides only on the first
   * sample of a target and kind that has them, so a result rebuilt from a cut stream keeps them.
   */
  | ({
      type: 'sample';
      target: string;
      kind: ProbeKind;
      phase: SamplePhase;
      index: number;
      /**
       * Once the kind's default count has shortened to fit the run's time bound: the count it will
       * now take (its latest), so progress counts against it before `targetDone` says so.
       */
      shortenedTo?: number;
    } & SampleReasons &
      SampleRecord)
  /** A `cold` sample waiting for its target to become cold (suspend, polling, idle time, command). */
  | {
      type: 'wait';
      target: string;
      kind: ProbeKind;
      step: ColdWaitStep;
      message: string;
      waitedMs: number;
      totalMs?: number;
    }
  /**
   * A `load` level or a `schedule` under way, at most every 500 ms and once at its end (`final`):
   * figures of this level so far. The duration kinds send no per-query samples (too many).
   */
  | {
      type: 'progress';
      target: string;
      kind: ProbeKind;
      /** Connections or arrivals per second (load), requests per second (schedule). */
      level: number;
      levelIndex: number;
      levels: number;
      elapsedMs: number;
      durationMs: number;
      /** Queries (load) or requests (schedule) answered so far in this level. */
      completed: number;
      errors: number;
      /** Answered per second of elapsed time. */
      achievedRate: number;
      /** Starts issued late, and starts never issued (fixed-rate levels; 0 otherwise). */
      late: number;
      dropped: number;
      final?: true;
    }
  | {
      type: 'targetDone';
      target: string;
      kind: ProbeKind;
      /** For fixed-rate (open) load and schedules: timed from each intended start (corrected). */
      stats: LatencyStats;
      failed: boolean;
      /** Present when `stats` are corrected: the service time (from issue to answer), beside them. */
      service?: LatencyStats;
      /** The default count this kind shortened to, to fit the run's time bound: the count it asked. */
      shortenedTo?: number;
    }
  | { type: 'error'; target?: string; kind?: ProbeKind; failure: ProbeFailure }
  | { type: 'done'; result: RunResult };

export type ProbeEventListener = (event: ProbeEvent) => void;
