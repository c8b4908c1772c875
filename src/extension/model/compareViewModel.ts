/** Side-by-side comparison of two runs: p50/p95 per target and kind, and the change from A to B. */
import { compareRuns, type Comparison } from '../../shared/judgement/differences';
import { judgeChanges } from '../../shared/judgement/judgeChanges';
import type { RunResult } from '../../shared/result';
import type { CompareRow, CompareSide, CompareViewModel } from '../../shared/viewModel';
import { locationLabel, runTitle } from './runViewModel';

export function buildCompareViewModel(a: RunResult, b: RunResult): CompareViewModel {
  const keys: { target: string; kind: CompareRow['kind'] }[] = [];
  for (const m of [...a.measurements, ...b.measurements]) {
    if (!keys.some((k) => k.target === m.target && k.kind === m.kind))
      keys.push({ target: m.target, kind: m.kind });
  }
  return {
    a: side(a),
    b: side(b),
    // A is the base, B the head, as `dbprobe compare A B` reads them.
    changes: judgeChanges(a, b),
    rows: keys.map(({ target, kind }) => {
      const fa = figures(a, target, kind);
      const fb = figures(b, target, kind);
      return {
        target,
        kind,
        a: fa,
        b: fb,
        ...(fa && fb
          ? {
              delta: {
                p50Us: fb.p50Us - fa.p50Us,
                p95Us: fb.p95Us - fa.p95Us,
                p50Ratio: ratio(fb.p50Us, fa.p50Us),
                p95Ratio: ratio(fb.p95Us, fa.p95Us),
              },
            }
          : {}),
      };
    }),
    differences: keys.flatMap(({ target, kind }) => {
      const comparison = runDifference(a, b, target, kind);
      return comparison ? [comparison] : [];
    }),
  };
}

/** B against A for one target and kind, when both runs kept enough samples of it. */
function runDifference(
  a: RunResult,
  b: RunResult,
  target: string,
  kind: CompareRow['kind'],
): Comparison | undefined {
  const ma = a.measurements.find((x) => x.target === target && x.kind === kind);
  const mb = b.measurements.find((x) => x.target === target && x.kind === kind);
  if (!ma || !mb) return undefined;
  return compareRuns(
    { label: 'run A', runId: a.id, measurement: ma },
    { label: 'run B', runId: b.id, measurement: mb },
  );
}

function side(result: RunResult): CompareSide {
  return {
    runId: result.id,
    label: runTitle(result).replace(/^DB Probe: /, ''),
    startedAt: result.startedAt,
    location: locationLabel(result),
  };
}

function figures(result: RunResult, target: string, kind: CompareRow['kind']) {
  const m = result.measurements.find((x) => x.target === target && x.kind === kind);
  return m && m.stats.count > 0 ? { p50Us: m.stats.p50Us, p95Us: m.stats.p95Us } : undefined;
}

/** b / a - 1: +0.25 is 25% slower in B. Zero when A has no time to compare against. */
function ratio(b: number, a: number): number {
  return a === 0 ? 0 : b / a - 1;
}
