/**
 * Each run's first verdict line and its one-line form, for the Runs view and the status bar, and the app location it was
 * judged for (so a row judged for another location is judged again). Judged in the body bundle,
 * where the engine's code is loaded, never in the activation bundle that lists runs; for where the
 * app runs, read as the panel reads it (panelProjection: `dbprobe.appLocation`, else `dbprobe.appRttMs`).
 */
import { judgeOptionsOf, judgeRun } from '../../shared/judgement/judgeRun';
import type { RunResult } from '../../shared/result';
import { appLocationKey, panelProjection } from '../settings/projectionSettings';

/** A run's first verdict line, and the same answer in one line, the winner first. */
export interface RunVerdict {
  line: string;
  short: string;
}

export interface VerdictJudge {
  /** The app location judged for (appLocationKey). */
  key: string;
  first(result: RunResult): RunVerdict | undefined;
}

/** The judge for the app location set now. */
export function verdictJudge(): VerdictJudge {
  const options = judgeOptionsOf(panelProjection());
  return {
    key: appLocationKey(),
    first: (result) => {
      const { lines, short } = judgeRun(result, options);
      return lines[0] && short ? { line: lines[0], short } : undefined;
    },
  };
}

export interface RunVerdicts {
  key: string;
  /** Run id -> its first verdict line (runs with nothing to rank have none). */
  lines: ReadonlyMap<string, RunVerdict>;
}

export function verdictsOf(results: readonly RunResult[]): RunVerdicts {
  const judge = verdictJudge();
  const lines = new Map<string, RunVerdict>();
  for (const result of results) {
    const first = judge.first(result);
    if (first) lines.set(result.id, first);
  }
  return { key: judge.key, lines };
}
