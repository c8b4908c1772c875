/**
 * Progress of one `load` level or `schedule` while it runs: answers and errors so far, the achieved
 * rate, late and dropped starts. Sent at most every PROGRESS_EVERY_MS (a level issues thousands of
 * queries a second: far too many to report one by one) and once when the level ends, so a runner's
 * stream never goes quiet during a long level and a Ctrl-C shows how far it got.
 */
import type { ProbeEvent } from '../../shared/events';
import type { ProbeKind } from '../../shared/plan';
import { elapsedUs, type Clock } from '../clock';
import { round3, type StartTally } from './startFigures';

export const PROGRESS_EVERY_MS = 500;

export interface LevelProgressInfo {
  target: string;
  kind: ProbeKind;
  level: number;
  levelIndex: number;
  levels: number;
  durationS: number;
}

export class LevelProgress {
  completed = 0;
  errors = 0;
  private startNs: bigint | undefined;
  private starts: StartTally | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly info: LevelProgressInfo,
    private readonly clock: Clock,
    private readonly emit: (event: ProbeEvent) => void,
  ) {}

  /** The level's clock started: report from now on. */
  began(startNs: bigint, starts?: StartTally): void {
    this.startNs = startNs;
    this.starts = starts;
    this.timer = setInterval(() => this.report(false), PROGRESS_EVERY_MS);
    // A progress timer must never keep a finished process alive.
    this.timer.unref?.();
  }

  /** The level is over: one last event with its totals. */
  end(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.report(true);
  }

  private report(final: boolean): void {
    const elapsedMs =
      this.startNs === undefined ? 0 : Math.round(elapsedUs(this.startNs, this.clock.nowNs()) / 1000);
    const { target, kind, level, levelIndex, levels, durationS } = this.info;
    this.emit({
      type: 'progress',
      target,
      kind,
      level,
      levelIndex,
      levels,
      elapsedMs,
      durationMs: Math.round(durationS * 1000),
      completed: this.completed,
      errors: this.errors,
      achievedRate: elapsedMs > 0 ? round3((this.completed * 1000) / elapsedMs) : 0,
      late: this.starts?.late ?? 0,
      dropped: this.starts?.dropped ?? 0,
      ...(final ? { final: true } : {}),
    });
  }
}
