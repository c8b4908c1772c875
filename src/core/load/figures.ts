/**
 * Pure judgements over load figures: whether a level kept up (error rate, latency, achieved rate) and
 * the request schedule's model `initial + (K-1) x subsequent` set against the measured totals.
 */
import type { LoadPlanSpec } from '../../shared/loadPlan';
import {
  MIN_ACHIEVED_SHARE,
  type LoadLevelFigures,
  type ScheduleModelFigures,
} from '../../shared/loadResult';
import type { LatencyStats } from '../../shared/result';
import { ms, percent } from '../../shared/units';

/**
 * Why a level did not keep up, or undefined when it did (or, for a cut level, when its samples show
 * no failure). A level cut short is judged only on what its samples establish by themselves (error
 * rate, latency): its start counts and rates are of a shorter time than asked, and what waited in line
 * at the cut was never issued, so they say nothing about keeping up.
 */
export function judgeLevel(level: LoadLevelFigures, settings: LoadPlanSpec): string | undefined {
  if (level.idle) return undefined;
  const reasons: string[] = [];
  // A level that ran no query has shown nothing, least of all that it kept up (its rates are 0 of 0).
  if (!level.cut && level.stats.count === 0 && level.stats.errors === 0)
    reasons.push('no query ran in the level');
  if (level.stats.errorRate > settings.maxErrorRate)
    reasons.push(`error rate ${percent(level.stats.errorRate)} > ${percent(settings.maxErrorRate)}`);
  const latency = level.corrected ?? level.stats;
  if (settings.maxLatencyMs !== undefined && latency.count > 0) {
    const value = latency[`${settings.latencyStat}Us`];
    if (value > settings.maxLatencyMs * 1000)
      reasons.push(
        `${settings.latencyStat}${level.corrected ? ' (corrected)' : ''} ${ms(value)} ms > ${settings.maxLatencyMs} ms`,
      );
  }
  const starts = level.cut ? undefined : level.starts;
  if (starts && starts.asked > 0 && starts.started < starts.asked * MIN_ACHIEVED_SHARE)
    reasons.push(`started ${starts.started} of ${starts.asked} asked (${starts.dropped} dropped)`);
  else if (starts && starts.achievedRate < starts.askedRate * MIN_ACHIEVED_SHARE)
    reasons.push(`achieved ${starts.achievedRate}/s of ${starts.askedRate}/s asked`);
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

/** Whether the verdict "kept up" may be said of this level: it ran its whole asked duration. */
export function judgedInFull(level: LoadLevelFigures): boolean {
  return !level.cut && !level.idle;
}

/** The first level that tripped a threshold. */
export function findKnee(levels: LoadLevelFigures[]): { level: number; reason: string } | undefined {
  const tripped = levels.find((l) => l.tripped !== undefined);
  return tripped?.tripped === undefined ? undefined : { level: tripped.level, reason: tripped.tripped };
}

export const SCHEDULE_MODEL_NOTE =
  'measured - predicted: the time a request spends between its queries in the client (scheduling, connection bookkeeping), plus, for p50, the spread of the distributions (percentiles do not add up exactly; means do)';

/**
 * The blog's "expected latency for K queries" beside what requests really took. Subsequent is the
 * pooled figure of positions 2..K (their p50 as the median of the positions' p50s, their mean as the
 * count-weighted mean).
 */
export function scheduleModel(
  positions: LatencyStats[],
  totals: LatencyStats,
): { p50: ScheduleModelFigures; mean: ScheduleModelFigures; note: string } | undefined {
  const first = positions[0];
  if (!first || first.count === 0 || totals.count === 0) return undefined;
  const rest = positions.slice(1).filter((p) => p.count > 0);
  const k = positions.length;
  const restCount = rest.reduce((sum, p) => sum + p.count, 0);
  const subsequentMean =
    restCount === 0 ? 0 : rest.reduce((sum, p) => sum + p.meanUs * p.count, 0) / restCount;
  const subsequentP50 = median(rest.map((p) => p.p50Us));
  return {
    p50: modelFigures('p50', first.p50Us, subsequentP50, k, totals.p50Us),
    mean: modelFigures('mean', first.meanUs, subsequentMean, k, totals.meanUs),
    note: SCHEDULE_MODEL_NOTE,
  };
}

function modelFigures(
  statistic: 'p50' | 'mean',
  initialUs: number,
  subsequentUs: number,
  queries: number,
  measuredUs: number,
): ScheduleModelFigures {
  const predictedUs = round(initialUs + (queries - 1) * subsequentUs);
  const differenceUs = round(measuredUs - predictedUs);
  return {
    statistic,
    initialUs: round(initialUs),
    subsequentUs: round(subsequentUs),
    predictedUs,
    measuredUs: round(measuredUs),
    differenceUs,
    differenceRate: predictedUs === 0 ? 0 : Math.round((differenceUs / predictedUs) * 10_000) / 10_000,
  };
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
