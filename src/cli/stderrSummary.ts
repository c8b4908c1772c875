/**
 * The stderr summary of a run, after its progress: the verdict lines first (src/shared/judgement,
 * the same words as the Markdown and the panel), then one line per target and kind. A kind that
 * measured nothing says so instead of printing zeros, and a p99 the samples cannot support
 * (percentileSupport.ts) is left out, with one note.
 */
import { judgeRun, type JudgeOptions } from '../shared/judgement/judgeRun';
import { MIN_SAMPLES_FOR, supports } from '../shared/percentileSupport';
import type { LatencyStats, Measurement, RunResult } from '../shared/result';
import { ms } from '../shared/units';

export function runSummaryLines(result: RunResult, options: JudgeOptions = {}, place?: string): string[] {
  const prefix = place ? `[${place}] ` : '';
  const judgement = judgeRun(result, options);
  const figures = result.measurements.map(measurementLine);
  const p99Left = result.measurements.some((m) => m.stats.count > 0 && !supports(m.stats.count, 'p99Us'));
  return [
    ...judgement.lines,
    ...figures,
    ...(p99Left
      ? [
          `(p99 is printed from ${MIN_SAMPLES_FOR.p99Us} successful samples: with fewer it is the largest sample under another name)`,
        ]
      : []),
  ].map((line) => `${prefix}${line}`);
}

function tail(s: LatencyStats): string {
  return supports(s.count, 'p99Us') ? `, p99 ${ms(s.p99Us)} ms` : '';
}

function measurementLine(m: Measurement): string {
  const s = m.stats;
  const name = `${m.target} ${m.kind}`;
  if (s.count === 0)
    return `${name}: measured nothing${s.errors > 0 ? ` (${s.errors} error${s.errors === 1 ? '' : 's'})` : ''}`;
  const service = m.load?.service ?? m.schedule?.serviceTotals;
  const counts = `n=${s.count}, errors=${s.errors}`;
  if (service)
    return `${name}: corrected (from the intended start) p50 ${ms(s.p50Us)} ms${tail(s)}; service time p50 ${ms(service.p50Us)} ms${tail(service)}; ${counts}`;
  return `${name}: p50 ${ms(s.p50Us)} ms${tail(s)}, ${counts}`;
}
