/**
 * The change gate's shapes, and a target's verdict from its percentiles': what `compareResults`
 * (runChanges.ts) says of each target and kind, and what commonMove.ts reads back.
 */
import type { ComparedPercentile } from './bootstrap';
import type { HostEvidence } from './hostEvidence';
import type { ProbeKind } from '../plan';

/** The percentiles the gate judges: the typical sample and the tail. */
export const CHANGE_PERCENTILES = [50, 99] as const satisfies readonly ComparedPercentile[];
export type ChangePercentile = (typeof CHANGE_PERCENTILES)[number];

export type ChangeVerdict = 'regressed' | 'improved' | 'not attributable' | 'no change detected';

export interface PercentileChange {
  percentile: ChangePercentile;
  /** The percentile of the samples each side's interval used (so figures and interval agree). */
  baseUs: number;
  headUs: number;
  /** head - base, and its 95% interval. */
  diffUs: number;
  lowUs: number;
  highUs: number;
  /** diff / base (0 when base is 0). */
  share: number;
  /** Undefined when this percentile could not be judged (`note` says why). */
  verdict?: ChangeVerdict;
  /** Set for "not attributable": whose client waited more for a CPU, and how much. */
  host?: HostEvidence;
  note?: string;
}

export interface TargetChange {
  target: string;
  kind: ProbeKind;
  /** Successful samples each side's interval used (absent when not compared). */
  samples?: { base: number; head: number };
  percentiles: PercentileChange[];
  /**
   * Regressed if any percentile regressed; improved if any improved and none regressed; not
   * attributable if a percentile moved while the host did, and none was established. "not
   * comparable" when both runs measured it but differently (workload, load levels or model).
   */
  verdict: ChangeVerdict | 'not compared' | 'not comparable';
  /** Why not compared or not comparable: a side without the target or kind, too few samples, a different workload. */
  note?: string;
  /** The side where every sample failed while the other measured some: the worst change there is. */
  failedIn?: 'BASE' | 'HEAD';
}

/**
 * A target's verdict from its percentiles': regressed if any regressed; improved if any improved and
 * none regressed; not attributable if one moved while the host did and none was established.
 */
export function targetVerdict(percentiles: readonly Pick<PercentileChange, 'verdict'>[]): ChangeVerdict {
  const verdicts = percentiles.map((p) => p.verdict);
  return verdicts.includes('regressed')
    ? 'regressed'
    : verdicts.includes('improved')
      ? 'improved'
      : verdicts.includes('not attributable')
        ? 'not attributable'
        : 'no change detected';
}
