/** The panel's projection lines and sentences, from the one computation the Markdown uses too. */
import { FLOOR_SOURCE_TEXT, PROJECTED_KINDS, projectRun } from '../../shared/projection';
import { findOvertakes } from '../../shared/judgement/projectionOvertakes';
import type { ProjectionLine, ProjectionView } from '../../shared/projectionLines';
import { DEFAULT_PROJECTION_RTTS_MS } from '../../shared/projectionRtts';
import type { RunResult } from '../../shared/result';

/**
 * Undefined when no target of the run has counted round trips (results from a version that did not count them). The
 * app's RTT (`appRttMs`) joins the RTTs asked for, so every view of it reads the same projectAt figure.
 */
export function projectionView(
  result: RunResult,
  rttsMs?: readonly number[],
  appRttMs?: number,
): ProjectionView | undefined {
  const asked = rttsMs ?? DEFAULT_PROJECTION_RTTS_MS;
  const all = appRttMs === undefined ? [...asked] : [...new Set([...asked, appRttMs])].sort((a, b) => a - b);
  const set = projectRun(result, { rttsMs: all });
  if (set.targets.length === 0) return undefined;
  const lines = set.targets.flatMap((t) =>
    PROJECTED_KINDS.flatMap((kind): ProjectionLine[] => {
      const k = t[kind];
      const pointsUs = kind === 'initial' ? t.initialAtUs : t.subsequentAtUs;
      return k && pointsUs
        ? [
            {
              target: t.target,
              kind,
              pointsUs,
              turns: k.turns,
              p50Us: k.p50Us,
              localUs: k.localUs,
              lowerBound: k.lowerBound !== undefined,
            },
          ]
        : [];
    }),
  );
  const overtakes = findOvertakes(result, set);
  return {
    rttsMs: set.rttsMs,
    appRttMs,
    lines,
    floors: set.targets.map((t) => ({
      target: t.target,
      floorUs: t.floor.us,
      source: t.floor.source,
      sourceText: FLOOR_SOURCE_TEXT[t.floor.source],
    })),
    overtakes: overtakes.filter((o) => o.state === 'established').map((o) => o.text),
    withinNoise: overtakes.filter((o) => o.state === 'noise').map((o) => o.text),
    skipped: set.skipped.map((s) => `${s.target}${s.kind ? ` (${s.kind})` : ''}: ${s.reason}`),
  };
}
