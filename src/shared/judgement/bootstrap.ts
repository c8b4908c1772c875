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
 * Samples taken over several warm connections (each sample says which) are resampled in two stages,
 * a cluster bootstrap: connections first, with replacement, then blocks of samples within each
 * connection drawn. Two connections to one server answer steadily apart, and samples of one
 * connection cannot show that spread however many there are; resampling connections puts it in the
 * interval, so an established difference speaks for the targets, not for their connections. With K
 * connections the bootstrap's spread of connections is (K - 1) / K of theirs (it resamples the K it
 * saw), and K is small, so a clustered side's resamples are widened about its figure by
 * sqrt(K / (K - 1)) times Student's t for K - 1 degrees of freedom over the normal quantile.
 *
 * Each side is resampled on its own, and the i-th resample of A is set against the i-th resample of
 * B: independent sides only ever widen the interval of a difference by what the two shared, the side
 * a claim should err on. The exception is a pair that shares its connections (an ORM layer over its
 * raw driver, taken back to back on one connection each round): `pairedSides` draws the same rounds
 * for both, so what the connection and the moment added to both cancels in the difference. The generator is seeded from a text the caller names
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
  /** Consecutive samples per resampled block (1: as if independent; the longest of a clustered side's). */
  blockLength: number;
  /** Connections resampled as clusters (1: the samples were not told apart by connection). */
  clusters: number;
  /** Set when drawn round by round with another side (pairedSides). */
  paired?: boolean;
  /**
   * Paired sides only (the same object on both): the median of the per-round differences (b - a)
   * and its resamples, drawn with the same rounds. What a layer adds to each query: the rounds'
   * shared moments and connections cancel in each difference, not only across the resamples.
   */
  roundDifferences?: { pointUs: number; resampledUs: Float64Array };
  /** Percentiles of the samples used. */
  point: Record<ComparedPercentile, number>;
  /** The mean of the samples used (µs): what a share of their time is taken of. */
  meanUs: number;
  resampled: Record<ComparedPercentile, Float64Array>;
  /** The mean CPU wait per sample (µs) and its resamples, when every sample used carries one. */
  wait?: { point: number; resampled: Float64Array };
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
  /** Forces the block length (tests; 1 resamples samples as independent). Default: from the samples. */
  blockLength?: number;
}

/** One side's samples in the order taken: latencies, and per sample its connection and CPU wait. */
export interface SideSamples {
  values: readonly number[];
  /** The warm connection of each sample (same length as values), when the kind kept several. */
  clusters?: readonly number[];
  /** The probing thread's CPU wait during each sample (µs), when the platform gave it. */
  waits?: readonly number[];
}

/** Resamples one side. `seedText` names it (e.g. kind + target) so its draws are its own and repeatable. */
export function bootstrapSide(
  samples: readonly number[] | SideSamples,
  seedText: string,
  options: BootstrapOptions = {},
): BootstrapSide {
  const side = sideSamples(samples);
  const kept = keep(side, options);
  const key = drawKey(kept, seedText, options);
  const known = drawnSides.get(key);
  if (known) {
    // Most recently used last: the oldest entry is the one dropped.
    drawnSides.delete(key);
    drawnSides.set(key, known);
    return known;
  }
  const plan = drawPlan(kept, options);
  const [drawn] = drawAll(plan, [kept], seedText, resamplesOf(options));
  drawnSides.set(key, drawn!);
  if (drawnSides.size > DRAWN_SIDES_KEPT) drawnSides.delete(drawnSides.keys().next().value!);
  return drawn!;
}

/**
 * Sides already drawn, by what determines them (seed text, options, the kept samples themselves):
 * one run's verdict, its busy-host line, its expected latencies and its panel each read the same
 * kind and target, and a 2,000 x 2,000 draw costs a quarter of a second on a 2-core VM, paid again
 * by every reader after a cancel. Same key, same draws, so the cache changes no figure; sides are
 * shared, so readers never reorder their arrays. Bounded (about 70 KB a side).
 */
const drawnSides = new Map<string, BootstrapSide>();
const DRAWN_SIDES_KEPT = 64;

function drawKey(kept: Kept, seedText: string, options: BootstrapOptions): string {
  const fingerprint = [kept.values, kept.clusters, kept.waits]
    .map((xs) => (xs ? `${xs.length}:${hashNumbers(xs)}` : '-'))
    .join('/');
  return `${seedText}\u0000${resamplesOf(options)}\u0000${options.blockLength ?? ''}\u0000${kept.offered}\u0000${fingerprint}`;
}

/**
 * Two 32-bit FNV-1a style hashes (different offsets and primes) over each number's float64 bits: two
 * sample sets share a key only when equal, or by a 2^-64 accident.
 */
function hashNumbers(values: readonly number[]): string {
  const bits = new Uint32Array(Float64Array.from(values).buffer);
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < bits.length; i++) {
    a = Math.imul(a ^ bits[i]!, 0x01000193);
    b = Math.imul(b ^ bits[i]!, 0x85ebca6b);
  }
  return `${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}`;
}

/**
 * Two sides taken round by round on shared connections (a layer and its raw driver): element i of a
 * and of b are one round's pair. Both are resampled with the same draws of rounds (blocks over the
 * pairs' order), so what a connection or a moment added to both cancels in their difference.
 */
export function pairedSides(
  a: SideSamples,
  b: SideSamples,
  seedText: string,
  options: BootstrapOptions = {},
): [BootstrapSide, BootstrapSide] {
  const n = Math.min(a.values.length, b.values.length);
  const cut = (s: SideSamples): SideSamples => ({
    values: s.values.slice(0, n),
    ...(s.waits ? { waits: s.waits.slice(0, n) } : {}),
  });
  const keptA = keep(cut(a), options);
  const keptB = keep(cut(b), options);
  // Blocks as long as the pairs' differences need: their spells are what the pairing leaves.
  const diffs = keptA.values.map((v, i) => keptB.values[i]! - v);
  const plan = drawPlan({ values: diffs }, options);
  const keptDiffs: Kept = { values: diffs, offered: keptA.offered };
  const [sideA, sideB, rounds] = drawAll(plan, [keptA, keptB, keptDiffs], seedText, resamplesOf(options));
  const roundDifferences = { pointUs: rounds!.point[50], resampledUs: rounds!.resampled[50] };
  return [
    { ...sideA!, paired: true, roundDifferences },
    { ...sideB!, paired: true, roundDifferences },
  ];
}

function sideSamples(samples: readonly number[] | SideSamples): SideSamples {
  return Array.isArray(samples) ? { values: samples as readonly number[] } : (samples as SideSamples);
}

function resamplesOf(options: BootstrapOptions): number {
  return Math.max(1, Math.min(options.resamples ?? BOOTSTRAP_RESAMPLES, BOOTSTRAP_RESAMPLES));
}

interface Kept {
  values: number[];
  clusters?: number[];
  waits?: number[];
  offered: number;
}

/** At most maxSamples, evenly spaced over the run and in order, with their clusters and waits. */
function keep(side: SideSamples, options: BootstrapOptions): Kept {
  const max = Math.max(1, Math.min(options.maxSamples ?? BOOTSTRAP_MAX_SAMPLES, BOOTSTRAP_MAX_SAMPLES));
  const positions = evenlySpaced(side.values.length, max);
  const pick = (xs: readonly number[] | undefined) =>
    xs && xs.length === side.values.length ? positions.map((i) => xs[i]!) : undefined;
  const clusters = pick(side.clusters);
  const waits = pick(side.waits);
  return {
    values: positions.map((i) => side.values[i]!),
    offered: side.values.length,
    ...(clusters ? { clusters } : {}),
    ...(waits ? { waits } : {}),
  };
}

/** How positions are drawn: blocks over the whole sequence, or connections then blocks within each. */
interface DrawPlan {
  n: number;
  /** Positions of each connection's samples, in the order taken; one group when not clustered. */
  groups: Uint32Array[];
  /** Block length per group. */
  blocks: number[];
  clustered: boolean;
}

function drawPlan(kept: Pick<Kept, 'values' | 'clusters'>, options: BootstrapOptions): DrawPlan {
  const n = kept.values.length;
  const byCluster = new Map<number, number[]>();
  if (kept.clusters)
    kept.clusters.forEach((c, i) => {
      const list = byCluster.get(c);
      if (list) list.push(i);
      else byCluster.set(c, [i]);
    });
  const clustered = byCluster.size >= 2;
  const groups = clustered
    ? [...byCluster.values()].map((list) => Uint32Array.from(list))
    : [Uint32Array.from({ length: n }, (_, i) => i)];
  const blocks = groups.map((group) => {
    const values = Array.from(group, (i) => kept.values[i]!);
    return Math.max(1, Math.min(group.length, Math.round(options.blockLength ?? blockLength(values))));
  });
  return { n, groups, blocks, clustered };
}

/**
 * Resamples every side with the same draws of positions (one side: its own bootstrap; two: a paired
 * one). Each resample's percentiles are read from counts over the sorted values, in O(samples).
 */
function drawAll(
  plan: DrawPlan,
  sides: readonly Kept[],
  seedText: string,
  resamples: number,
): BootstrapSide[] {
  const { n } = plan;
  const prepared = sides.map((side) => sortedSide(side.values));
  const out = sides.map((side, s) => {
    const point = {
      50: valueAtRank(prepared[s]!.sorted, nearestRank(50, n)),
      95: valueAtRank(prepared[s]!.sorted, nearestRank(95, n)),
      99: valueAtRank(prepared[s]!.sorted, nearestRank(99, n)),
    };
    const waits = side.waits;
    return {
      used: n,
      offered: side.offered,
      blockLength: n === 0 ? 1 : Math.max(...plan.blocks),
      clusters: plan.clustered ? plan.groups.length : 1,
      point,
      meanUs: mean(side.values),
      resampled: {
        50: new Float64Array(resamples),
        95: new Float64Array(resamples),
        99: new Float64Array(resamples),
      },
      ...(waits ? { wait: { point: mean(waits), resampled: new Float64Array(resamples) } } : {}),
    } satisfies BootstrapSide;
  });
  if (n === 0) return out;
  const random = mulberry32(seedFromText(seedText));
  const drawn = new Uint32Array(Math.max(n, ...plan.groups.map((g) => g.length)) * 2);
  const counts = prepared.map(() => new Uint32Array(n));
  for (let r = 0; r < resamples; r++) {
    const m = drawPositions(plan, random, drawn);
    sides.forEach((side, s) => {
      const { rankOf, sorted } = prepared[s]!;
      const count = counts[s]!;
      count.fill(0);
      let waitSum = 0;
      for (let k = 0; k < m; k++) {
        const at = drawn[k]!;
        count[rankOf[at]!]! += 1;
        if (side.waits) waitSum += side.waits[at]!;
      }
      readPercentiles(count, sorted, m, out[s]!.resampled, r);
      if (out[s]!.wait) out[s]!.wait!.resampled[r] = waitSum / m;
    });
  }
  // Resampling K connections shows (K - 1) / K of their spread, and K is small: the resamples are
  // widened about the figure by sqrt(K / (K - 1)) and by Student's t for K - 1 degrees of freedom
  // over the normal quantile, the small-sample correction of an interval estimated from K clusters.
  if (plan.clustered) {
    const k = plan.groups.length;
    const widen = Math.sqrt(k / (k - 1)) * (studentT975(k - 1) / 1.959964);
    for (const side of out)
      for (const p of BOOTSTRAP_PERCENTILES) {
        const values = side.resampled[p];
        for (let r = 0; r < values.length; r++)
          values[r] = side.point[p] + widen * (values[r]! - side.point[p]);
      }
  }
  return out;
}

/** Fills `drawn` with one resample's positions; returns how many. */
function drawPositions(plan: DrawPlan, random: () => number, drawn: Uint32Array): number {
  let filled = 0;
  const groupCount = plan.groups.length;
  for (let g = 0; g < groupCount; g++) {
    // Clustered: a connection drawn with replacement; else the one group, once.
    const chosen = plan.clustered ? Math.min(groupCount - 1, Math.floor(random() * groupCount)) : g;
    const group = plan.groups[chosen]!;
    const size = group.length;
    const block = plan.blocks[chosen]!;
    // Whole blocks from random starts, wrapping past the end, until the group's count is drawn.
    for (let taken = 0; taken < size;) {
      const start = Math.min(size - 1, Math.floor(random() * size));
      const take = Math.min(block, size - taken);
      for (let k = 0; k < take; k++) {
        const at = start + k;
        drawn[filled++] = group[at < size ? at : at - size]!;
      }
      taken += take;
    }
  }
  return filled;
}

function sortedSide(values: readonly number[]): { sorted: Float64Array; rankOf: Uint32Array } {
  const n = values.length;
  // Positions in sorted order: rankOf[i] is where the i-th sample taken sits among the sorted ones.
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => values[x]! - values[y]!);
  const sorted = Float64Array.from(order, (i) => values[i]!);
  const rankOf = new Uint32Array(n);
  order.forEach((at, position) => (rankOf[at] = position));
  return { sorted, rankOf };
}

/** Walks the sorted values, adding how often each was drawn, until each wanted rank is reached. */
function readPercentiles(
  counts: Uint32Array,
  sorted: Float64Array,
  drawnCount: number,
  into: Record<ComparedPercentile, Float64Array>,
  r: number,
): void {
  let seen = 0;
  let next = 0;
  const ranks = BOOTSTRAP_PERCENTILES.map((p) => nearestRank(p, drawnCount));
  for (let j = 0; j < sorted.length && next < ranks.length; j++) {
    seen += counts[j]!;
    while (next < ranks.length && seen >= ranks[next]!) {
      into[BOOTSTRAP_PERCENTILES[next]!][r] = sorted[j]!;
      next += 1;
    }
  }
}

/** Student's t 97.5% quantile for `df` degrees of freedom (the normal's 1.96 beyond the table). */
function studentT975(df: number): number {
  const table = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  ];
  if (df < 1) return table[0]!;
  return df <= table.length
    ? table[df - 1]!
    : df <= 30
      ? 2.042 + (2.131 - 2.042) * ((30 - df) / 15)
      : 1.959964;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/**
 * The bootstrap interval of b - a at percentile p (both sides resampled the same number of times);
 * for paired sides at p50, of the median of the per-round differences.
 */
export function differenceInterval(
  a: BootstrapSide,
  b: BootstrapSide,
  p: ComparedPercentile,
  confidence = BOOTSTRAP_CONFIDENCE,
): DifferenceInterval {
  // Paired sides at the median: the median of the rounds' own differences (a copy: the ends are
  // selected in place).
  const rounds = a.roundDifferences;
  if (p === 50 && rounds && rounds === b.roundDifferences) {
    const [low, high] = intervalEnds(Float64Array.from(rounds.resampledUs), confidence);
    return { diffUs: rounds.pointUs, lowUs: low, highUs: high };
  }
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
 * Positions of at most `max` of n samples, spread evenly over the run so a long run's drift is still
 * represented, in the order they were taken (the block length reads that order).
 */
function evenlySpaced(n: number, max: number): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const step = n / max;
  return Array.from({ length: max }, (_, i) => Math.floor(i * step));
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
