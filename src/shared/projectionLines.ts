/** The panel's "From where your app runs" part: the lines its chart draws, built from src/shared/projection.ts. */
import type { FloorSource, ProjectedKind } from './projection';

export interface ProjectionLine {
  target: string;
  kind: ProjectedKind;
  /** pointsUs[i]: the projected p50 at rttsMs[i] (projectAt, the function every view uses). */
  pointsUs: number[];
  turns: number;
  p50Us: number;
  localUs: number;
  /** The kind received more than an initial congestion window: the line is a lower bound. */
  lowerBound: boolean;
}

export interface ProjectionView {
  /** The projection.rtts columns with the app's RTT among them (sorted, each once). */
  rttsMs: number[];
  /** The RTT to where the app runs (dbprobe.appRttMs), one of rttsMs: the chart marks it. */
  appRttMs?: number;
  lines: ProjectionLine[];
  floors: { target: string; floorUs: number; source: FloorSource; sourceText: string }[];
  /** Established overtakes, one sentence each, and pairs whose lines cross within noise. */
  overtakes: string[];
  withinNoise: string[];
  /** Targets (or kinds) not projected, each with why. */
  skipped: string[];
}
