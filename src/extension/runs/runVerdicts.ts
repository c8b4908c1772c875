/**
 * Each run's first verdict line, for the Runs view and the status bar, and the app location it was
 * judged for (so a row judged for another location is judged again). Judged in the body bundle,
 * where the engine's code is loaded, never in the activation bundle that lists runs; for where the
 * app runs, read as the panel reads it (panelProjection: `dbprobe.appLocation`, else `dbprobe.appRttMs`).
 */
import { judgeOptionsOf, judgeRun } from '../../shared/judgement/judgeRun';
import type { RunResult } from '../../shared/result';
import { appLocationKey, panelProjection } from '../settings/projectionSettings';

export interface VerdictJudge {
  /** The app location judged for (appLocationKey). */
  key: string;
  first(result: RunResult): string | undefined;
}

/** The judge for the app location set now. */
export function verdictJudge(): VerdictJudge {
  const options = judgeOptionsOf(panelProjection());
  return { key: appLocationKey(), first: (result) => judgeRun(result, options).lines[0] };
}

export interface RunVerdicts {
  key: string;
  /** Run id -> its first verdict line (runs with nothing to rank have none). */
  lines: ReadonlyMap<string, string>;
}

export function verdictsOf(results: readonly RunResult[]): RunVerdicts {
  const judge = verdictJudge();
  const lines = new Map<string, string>();
  for (const result of results) {
    const first = judge.first(result);
    if (first) lines.set(result.id, first);
  }
  return { key: judge.key, lines };
}
