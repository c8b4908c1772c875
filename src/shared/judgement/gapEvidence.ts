/**
 * The evidence for a gap between two targets on one question, in the form the one comparison rule
 * (`judgeDifference`, differences.ts) reads. A question of one kind measured here is the Differences
 * table's own p50 row, unchanged. A projected figure shifts that row's interval by a fixed amount:
 * p50 at r = p50 + turns x (r - floor), and turns and floor are counted, not sampled, so the
 * interval moves with the figure and keeps its width. A request of k queries adds its kinds' rows
 * (initial + (k - 1) x subsequent): the intervals' ends add, which can only widen the interval. A
 * part whose slower side's client was the busier one makes the whole gap the host's (hostEvidence.ts),
 * and the user's minimum effect applies to the question's own figures.
 */
import type { Comparison, DifferenceEvidence } from './differences';
import { judgeDifference } from './differences';
import { minEffectUs, type MinEffect } from './minEffect';
import { projectAt, type KindProjection, type ProjectedKind } from '../projection';

/** One kind a question is made of, and how many times a request pays it. */
export interface QuestionPart {
  kind: ProjectedKind;
  weight: number;
}

export interface GapContext {
  comparisons: readonly Comparison[];
  /** The user's minimum effect, when set. */
  minEffect?: MinEffect;
  /** The kind's projection of a target, when it has one. */
  projectionOf: (target: string, kind: ProjectedKind) => KindProjection | undefined;
}

/** Whether `slower` is established behind `faster` on this question, here or at `rttUs`. */
export function gapEstablished(
  faster: string,
  slower: string,
  parts: readonly QuestionPart[],
  context: GapContext,
  rttUs?: number,
): boolean {
  const evidence = gapEvidence(faster, slower, parts, context, rttUs);
  return evidence !== undefined && judgeDifference(evidence).established && evidence.lowUs > 0;
}

/** slower - faster, summed over the question's parts; undefined when a part has no comparison. */
export function gapEvidence(
  faster: string,
  slower: string,
  parts: readonly QuestionPart[],
  context: GapContext,
  rttUs?: number,
): DifferenceEvidence | undefined {
  let diffUs = 0;
  let lowUs = 0;
  let highUs = 0;
  let fasterUs = 0;
  let slowerUs = 0;
  let host: DifferenceEvidence['host'];
  let used = Number.POSITIVE_INFINITY;
  for (const { kind, weight } of parts) {
    const oriented = orientedP50(context.comparisons, kind, faster, slower);
    if (!oriented) return undefined;
    let shiftFaster = 0;
    let shiftSlower = 0;
    if (rttUs !== undefined) {
      const pf = context.projectionOf(faster, kind);
      const ps = context.projectionOf(slower, kind);
      if (!pf || !ps) return undefined;
      shiftFaster = projectAt(pf, rttUs) - pf.p50Us;
      shiftSlower = projectAt(ps, rttUs) - ps.p50Us;
    }
    const shift = shiftSlower - shiftFaster;
    diffUs += weight * (oriented.diffUs + shift);
    lowUs += weight * (oriented.lowUs + shift);
    highUs += weight * (oriented.highUs + shift);
    fasterUs += weight * (oriented.fasterUs + shiftFaster);
    slowerUs += weight * (oriented.slowerUs + shiftSlower);
    // A part the host may explain leaves the whole gap to it.
    if (oriented.host) host ??= oriented.host;
    used = Math.min(used, oriented.used);
  }
  const minimum = minEffectUs(context.minEffect, fasterUs, slowerUs);
  return {
    percentile: 50,
    diffUs,
    lowUs,
    highUs,
    used,
    ...(minimum !== undefined ? { minEffectUs: minimum } : {}),
    ...(host ? { host } : {}),
  };
}

/** The Differences table's p50 row for the pair, turned so that it reads slower - faster. */
function orientedP50(
  comparisons: readonly Comparison[],
  kind: ProjectedKind,
  faster: string,
  slower: string,
):
  | {
      diffUs: number;
      lowUs: number;
      highUs: number;
      fasterUs: number;
      slowerUs: number;
      used: number;
      host?: DifferenceEvidence['host'];
    }
  | undefined {
  const c = comparisons.find(
    (x) => x.kind === kind && ((x.a === faster && x.b === slower) || (x.a === slower && x.b === faster)),
  );
  const d = c?.differences.find((x) => x.percentile === 50);
  if (!c || !d) return undefined;
  const used = Math.min(c.samples.a, c.samples.b);
  const host = d.host ? { host: d.host } : {};
  return c.a === faster
    ? { diffUs: d.diffUs, lowUs: d.lowUs, highUs: d.highUs, fasterUs: d.aUs, slowerUs: d.bUs, used, ...host }
    : {
        diffUs: -d.diffUs,
        lowUs: -d.highUs,
        highUs: -d.lowUs,
        fasterUs: d.bUs,
        slowerUs: d.aUs,
        used,
        ...host,
      };
}
