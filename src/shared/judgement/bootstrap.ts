/**
 * Percentile bootstrap over raw latency samples: how sure is "A is faster than B at p50"?
 *
 * Samples are resampled in blocks of consecutive samples (a circular block bootstrap), not one at a
 * time: a busy host's slow spells span many consecutive samples, and resampling them as independent
 * gave intervals too narrow to trust (two identical targets "differed" in 1 run of 20). The block
 * length comes from the samples' own autocorrelation (blockLength.ts); samples must therefore arrive
 * in the order they were taken, and the cap keeps that order. Circular rather than moving blocks so
 * the first and last samples are drawn as often as the rest; fixed rather than random (stationary
 * bootstrap) lengths because they vary the interval less for the same length.
 *
 * Each side is resampled on its own, and the i-th resample of A is set against the i-th resample of
 * B. Pairing the two sides' blocks by round (interleaved runs take A's i-th sample beside B's) would
 * cancel slow spells both sides shared and give narrower intervals, but it rests on the i-th
 * successes being taken together, which failed samples, sequential runs, two runs (`compare`) and the
 * cap all break; independent sides only ever widen the interval of a difference by what the two
 * shared, the side a claim should err on. The generator is seeded from a text the caller names
 * (target and kind), so the same samples always give the same interval: a report can be regenerated
 * and a test can pin it. Work is bounded: at most BOOTSTRAP_MAX_SAMPLES samples per side and
 * BOOTSTRAP_RESAMPLES resamples, each drawn in O(samples) without sorting (counts over the sorted
 * samples, then one scan to the ranks wanted).
 */
import { blockLength } from './blockLength';

export const BOOTSTRAP_RESAMPLES = 2_000;
/** Samples per side the bootstrap reads; beyond it, an evenly spaced subset across the run. */
export const BOOTSTRAP_MAX_SAMPLES = 2_000;
export const BOOTSTRAP_CONFIDENCE = 0.95;

/** Percentiles every resample records: p99 for the change gate (`dbprobe compare`), the rest for the views. */
export const BOOTSTRAP_PERCENTILES = [50, 95, 99] as const;
export type ComparedPercentile = (typeof BOOTSTRAP_PERCENTILES)[number];
/** What the Markdown and the panel compare between targets and runs. */
export const COMPARED_PERCENTILES = [50, 95] as const satisfies readonly ComparedPercentile[];

/** One side's resampled percentiles: `resampled[p][i]` is percentile p of resample i. */
export interface BootstrapSide {
  /** Samples the bootstrap used (after the cap). */
  used: number;
  /** Samples offered (before the cap). */
  offered: number;
  /** Consecutive samples per resampled block (1: as if independent). */
  blockLength: number;
  /** Percentiles of the samples used. */
  point: Record<ComparedPercentile, number>;
  resampled: Record<ComparedPercentile, Float64Array>;
}

export interface DifferenceInterval {
  /** b - a at the percentile, from the samples used. */
  diffUs: number;
  /** The interval's ends, of b - a. */
  lowUs: number;
  highUs: number;
}

export interface BootstrapOptions {
  resamples?: number;
  maxSamples?: number;
  /**
   * Sides already drawn, by seed text: for callers that resample one run's samples more than once
   * (the panel's expected-latency chart and Differences table draw the same kind and target). The
   * seed text must then name the samples, as kind + target does within one run.
   */
  memo?: Map<string, BootstrapSide>;
  /** Forces the block length (tests; 1 resamples samples as independent). Default: from the samples. */
  blockLength?: number;
}

/** Resamples one side. `seedText` names it (e.g. kind + target) so its draws are its own and repeatable. */
export function bootstrapSide(
  values: readonly number[],
  seedText: string,
  options: BootstrapOptions = {},
): BootstrapSide {
  const known = options.memo?.get(seedText);
  if (known) return known;
  const side = drawSide(values, seedText, options);
  options.memo?.set(seedText, side);
  return side;
}

function drawSide(values: readonly number[], seedText: string, options: BootstrapOptions): BootstrapSide {
  const resamples = Math.max(1, Math.min(options.resamples ?? BOOTSTRAP_RESAMPLES, BOOTSTRAP_RESAMPLES));
  const maxSamples = Math.max(
    1,
    Math.min(options.maxSamples ?? BOOTSTRAP_MAX_SAMPLES, BOOTSTRAP_MAX_SAMPLES),
  );
  const kept = evenlySpaced(values, maxSamples);
  const n = kept.length;
  // Positions in sorted order: rankOf[i] is where the i-th sample taken sits among the sorted ones.
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => kept[x]! - kept[y]!);
  const sorted = Float64Array.from(order, (i) => kept[i]!);
  const rankOf = new Uint32Array(n);
  order.forEach((at, position) => (rankOf[at] = position));
  const ranks = BOOTSTRAP_PERCENTILES.map((p) => nearestRank(p, n));
  const point = {
    50: valueAtRank(sorted, ranks[0]!),
    95: valueAtRank(sorted, ranks[1]!),
    99: valueAtRank(sorted, ranks[2]!),
  };
  const resampled = {
    50: new Float64Array(resamples),
    95: new Float64Array(resamples),
    99: new Float64Array(resamples),
  };
  const block = Math.max(1, Math.min(n, Math.round(options.blockLength ?? blockLength(kept))));
  if (n === 0) return { used: 0, offered: values.length, blockLength: 1, point, resampled };

  // mulberry32 inlined (see mulberry32 below): this loop is the whole cost, a call per draw doubles it.
  let state = seedFromText(seedText);
  const counts = new Uint32Array(n);
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    // Whole blocks from random starts, wrapping past the end, until n samples are drawn.
    for (let filled = 0; filled < n;) {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const start = ((((t ^ (t >>> 14)) >>> 0) * n) / 4294967296) | 0;
      const take = Math.min(block, n - filled);
      for (let k = 0; k < take; k++) {
        const at = start + k;
        counts[rankOf[at < n ? at : at - n]!]! += 1;
      }
      filled += take;
    }
    // Walk the sorted values, adding how often each was drawn, until each wanted rank is reached.
    let seen = 0;
    let next = 0;
    for (let j = 0; j < n && next < ranks.length; j++) {
      seen += counts[j]!;
      while (next < ranks.length && seen >= ranks[next]!) {
        resampled[BOOTSTRAP_PERCENTILES[next]!][r] = sorted[j]!;
        next += 1;
      }
    }
  }
  return { used: n, offered: values.length, blockLength: block, point, resampled };
}

/** The bootstrap interval of b - a at percentile p (both sides resampled the same number of times). */
export function differenceInterval(
  a: BootstrapSide,
  b: BootstrapSide,
  p: ComparedPercentile,
  confidence = BOOTSTRAP_CONFIDENCE,
): DifferenceInterval {
  const count = Math.min(a.resampled[p].length, b.resampled[p].length);
  const diffs = new Float64Array(count);
  for (let i = 0; i < count; i++) diffs[i] = b.resampled[p][i]! - a.resampled[p][i]!;
  const [low, high] = intervalEnds(diffs, confidence);
  return { diffUs: b.point[p] - a.point[p], lowUs: low, highUs: high };
}

/**
 * The ends of the central `confidence` interval of `values` (reordered in place): the same elements
 * sorting would pick, found by selection in O(n) rather than a sort (a run's panel asks for hundreds).
 */
export function intervalEnds(values: Float64Array, confidence = BOOTSTRAP_CONFIDENCE): [number, number] {
  const count = values.length;
  if (count === 0) return [0, 0];
  const tail = (1 - confidence) / 2;
  const lowAt = Math.min(count - 1, Math.max(0, Math.floor(tail * count)));
  const highAt = Math.min(count - 1, Math.max(0, Math.ceil((1 - tail) * count) - 1));
  const low = selectInPlace(values, lowAt, 0);
  // Everything after lowAt is >= the low end now: the high end is selected among those alone.
  const high = highAt <= lowAt ? low : selectInPlace(values, highAt, lowAt + 1);
  return [low, high];
}

/**
 * The k-th smallest of values[from..] (0-based over the whole array), moving it to index k with
 * smaller ones before and larger ones after (Hoare's quickselect, middle pivot; no NaN expected).
 */
export function selectInPlace(values: Float64Array, k: number, from = 0): number {
  let left = from;
  let right = values.length - 1;
  while (left < right) {
    const pivot = values[(left + right) >>> 1]!;
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else break;
  }
  return values[k]!;
}

/** Nearest-rank percentile (1-based rank), the definition HDR histograms use for the tables. */
export function nearestRank(p: number, n: number): number {
  return Math.max(1, Math.ceil((p / 100) * n));
}

function valueAtRank(sorted: Float64Array, rank: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length, rank) - 1]!;
}

/**
 * At most `max` values, spread evenly over the run so a long run's drift is still represented, in the
 * order they were taken (the block length reads that order).
 */
function evenlySpaced(values: readonly number[], max: number): number[] {
  if (values.length <= max) return [...values];
  const step = values.length / max;
  return Array.from({ length: max }, (_, i) => values[Math.floor(i * step)]!);
}

/** mulberry32: a small, fast 32-bit generator; plenty for resampling indices, and reproducible. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the text's UTF-16 code units: a stable 32-bit seed from a name. */
export function seedFromText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
