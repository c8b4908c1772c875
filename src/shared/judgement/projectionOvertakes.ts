/**
 * The RTT at which one target overtakes another, named only with evidence, by the rule
 * every comparison follows (src/shared/differences.ts, DESIGN rule 11).
 *
 * Two projected lines, p50 = local + turns x r, cross where local_a - local_b = (turns_b - turns_a) x r.
 * They cross at a positive RTT only when the target with fewer turns does more local work: below the
 * crossing the other is faster, beyond it the one with fewer turns. That is established when the
 * bootstrap 95% interval of the local-part difference excludes zero on the side opposite to the
 * turns difference by the one comparison rule (judgeDifference, with the user's minimum effect);
 * otherwise the pair is "within noise" and no RTT is named.
 *
 * Each local part is resampled as p50* - turns x floor*, where p50* resamples the kind's samples
 * (seeded as the Differences table seeds them) and floor* the TCP phases of the target's new
 * connections (a fixed floor when it came from the subsequent fallback). The crossing's interval is
 * the local-part interval divided by the turns difference.
 */
import { BOOTSTRAP_CONFIDENCE, bootstrapSide } from './bootstrap';
import { judgeDifference, MIN_COMPARED_SAMPLES, sideSamples, withRunRule } from './differences';
import { minEffectText, minEffectUs, type MinEffect } from './minEffect';
import type { KindProjection, ProjectedKind, ProjectionSet, TargetProjection } from '../projection';
import type { Measurement, RunResult } from '../result';
import { ms } from '../units';
import { sameWorkload } from './sectionScope';

export interface Overtake {
  kind: ProjectedKind;
  /** Fewer turns: slower up close, faster from `rttUs` on. */
  winner: string;
  loser: string;
  /** Where the p50 lines cross (point estimate). */
  rttUs: number;
  state: 'established' | 'noise';
  /** 95% interval of the crossing RTT (established only). */
  lowUs?: number;
  highUs?: number;
  text: string;
}

/** Every pair of projected targets per kind whose lines cross at a positive RTT. */
export function findOvertakes(
  result: RunResult,
  projections: ProjectionSet,
  asked: { minEffect?: MinEffect } = {},
): Overtake[] {
  const rule = withRunRule(result, asked);
  // Lines of different workloads cross without meaning anything: only one class's targets are set against each other.
  const comparable = sameWorkload(result);
  const found: Overtake[] = [];
  const locals = new Map<string, Float64Array | undefined>();
  const localsOf = (t: TargetProjection, k: KindProjection) => {
    const key = `${k.kind}\u0000${t.target}`;
    if (!locals.has(key)) locals.set(key, resampledLocal(result.measurements, t, k));
    return locals.get(key);
  };
  for (const kind of ['initial', 'subsequent'] as const) {
    const samplesOf = (target: string) =>
      result.measurements.find((m) => m.target === target && m.kind === kind)?.stats.count ?? 0;
    const sides = projections.targets.flatMap((t) => {
      const k = t[kind];
      return k ? [{ t, k }] : [];
    });
    for (let i = 0; i < sides.length; i++) {
      for (let j = i + 1; j < sides.length; j++) {
        const a = sides[i]!;
        const b = sides[j]!;
        if (a.k.turns === b.k.turns || !comparable(a.t.target, b.t.target)) continue;
        // The winner beyond the crossing has fewer turns; it must do more local work to lose up close.
        const [win, lose] = a.k.turns < b.k.turns ? [a, b] : [b, a];
        const localDiffUs = win.k.localUs - lose.k.localUs;
        if (localDiffUs <= 0) continue;
        const turnDiff = lose.k.turns - win.k.turns;
        const rttUs = localDiffUs / turnDiff;
        const base = { kind, winner: win.t.target, loser: lose.t.target, rttUs };
        const name = `${win.t.target} overtakes ${lose.t.target} (${kind})`;
        const lines = `their ${kind} p50 lines cross at ${ms(rttUs)} ms RTT`;
        const winLocals = localsOf(win.t, win.k);
        const loseLocals = localsOf(lose.t, lose.k);
        if (!winLocals || !loseLocals) {
          found.push({
            ...base,
            state: 'noise',
            text: `${win.t.target} and ${lose.t.target} are within noise (${kind}): ${lines}, but a side has fewer than ${MIN_COMPARED_SAMPLES} samples, so no crossing is named`,
          });
          continue;
        }
        const interval = diffInterval(winLocals, loseLocals);
        const minimum = minEffectUs(rule.minEffect, win.k.p50Us, lose.k.p50Us);
        const verdict = judgeDifference({
          percentile: 50,
          diffUs: localDiffUs,
          ...interval,
          used: Math.min(samplesOf(win.t.target), samplesOf(lose.t.target)),
          ...(minimum !== undefined ? { minEffectUs: minimum } : {}),
        });
        const ci = `${Math.round(BOOTSTRAP_CONFIDENCE * 100)}% CI`;
        if (
          interval.lowUs <= 0 ||
          verdict.notEstablishedBy === 'interval' ||
          verdict.notEstablishedBy === 'tail'
        ) {
          found.push({
            ...base,
            state: 'noise',
            text: `${win.t.target} and ${lose.t.target} are within noise (${kind}): ${lines}, but the ${ci} of the local-work difference, ${ms(interval.lowUs)} to ${ms(interval.highUs)} ms, contains 0`,
          });
          continue;
        }
        if (!verdict.established) {
          found.push({
            ...base,
            state: 'noise',
            text: `${win.t.target} and ${lose.t.target} are within noise (${kind}): ${lines}, but the local-work difference (${ms(localDiffUs)} ms) is below the minimum effect (${rule.minEffect ? minEffectText(rule.minEffect) : 'none'})`,
          });
          continue;
        }
        const lowUs = interval.lowUs / turnDiff;
        const highUs = interval.highUs / turnDiff;
        found.push({
          ...base,
          state: 'established',
          lowUs,
          highUs,
          text: `${name} from ${ms(rttUs)} ms RTT (${ci} ${ms(lowUs)} to ${ms(highUs)} ms): ${turnDiff} fewer turn${turnDiff === 1 ? '' : 's'} outweigh ${ms(localDiffUs)} ms more local work`,
        });
      }
    }
  }
  return found.sort((x, y) => x.rttUs - y.rttUs || x.winner.localeCompare(y.winner));
}

/** The kind's local part per resample: p50* - turns x floor* (undefined with too few samples). */
function resampledLocal(
  measurements: readonly Measurement[],
  t: TargetProjection,
  k: KindProjection,
): Float64Array | undefined {
  const m = measurements.find((x) => x.target === t.target && x.kind === k.kind);
  if (!m) return undefined;
  const samples = sideSamples(m);
  if (samples.values.length < MIN_COMPARED_SAMPLES) return undefined;
  // Seeded as the Differences table seeds the same kind and target: one run, one set of draws.
  const p50s = bootstrapSide(samples, `${k.kind}\u0000${t.target}`).resampled[50];
  const floors = t.floor.source === 'tcp' ? resampledFloor(measurements, t.target) : undefined;
  return p50s.map((p50, r) => p50 - k.turns * (floors?.[r] ?? t.floor.us));
}

function resampledFloor(measurements: readonly Measurement[], target: string): Float64Array | undefined {
  const initial = measurements.find((m) => m.target === target && m.kind === 'initial');
  const tcp = initial?.samples.values.flatMap((s) => (s.tcpUs === undefined ? [] : [s.tcpUs])) ?? [];
  return tcp.length < MIN_COMPARED_SAMPLES
    ? undefined
    : bootstrapSide(tcp, `floor\u0000${target}`).resampled[50];
}

/** The 95% interval of a - b over paired resamples. */
function diffInterval(a: Float64Array, b: Float64Array): { lowUs: number; highUs: number } {
  const count = Math.min(a.length, b.length);
  const diffs = new Float64Array(count);
  for (let r = 0; r < count; r++) diffs[r] = a[r]! - b[r]!;
  diffs.sort();
  const tail = (1 - BOOTSTRAP_CONFIDENCE) / 2;
  return {
    lowUs: diffs[Math.min(count - 1, Math.max(0, Math.floor(tail * count)))] ?? 0,
    highUs: diffs[Math.min(count - 1, Math.max(0, Math.ceil((1 - tail) * count) - 1))] ?? 0,
  };
}
