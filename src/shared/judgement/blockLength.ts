/**
 * How long a block the bootstrap resamples, from the samples themselves (in the order taken).
 *
 * A busy host's slow spells span many consecutive samples; resampling samples one at a time treats a
 * spell as many independent slow samples and gives an interval far too narrow (two identical targets
 * then "differ"). Resampling blocks of consecutive samples keeps a spell together. The length is
 * Politis & White's automatic choice for the circular block bootstrap (2004, with the correction of
 * Patton, Politis & White 2009): from the autocorrelation up to the lag where it falls off (a flat-top
 * lag window), b = (2 G^2 / D)^(1/3) n^(1/3). It is computed over the samples' ranks, not their values:
 * the percentiles compared depend on order alone, and one 100 ms stall would otherwise dominate the
 * autocorrelation of a run of 1 ms samples. Politis-White minimises the error of a variance, and a
 * claim needs coverage, which wants longer blocks: so a block is also at least twice the lag where
 * the autocorrelation falls off (a block then holds most spells whole rather than cutting each in
 * two), and at least n^(1/3) (the rate every block length shares), which keeps short spells the
 * autocorrelation cannot yet resolve from being taken as independent. A ceiling of
 * min(3 sqrt n, n / 3) leaves at least three blocks. Measured on two identical regime-switching
 * processes (test/unit/bootstrap-blocks.test.ts): samples resampled one at a time excluded 0 in about
 * a quarter of the data sets, these blocks in about one in twenty.
 */

/** The block length for `values` (at least 1, at most max(1, ceil(n / 3))). */
export function blockLength(values: ArrayLike<number>): number {
  const n = values.length;
  if (n < 4) return 1;
  const floor = Math.ceil(Math.cbrt(n));
  const ceiling = Math.max(1, Math.ceil(Math.min(3 * Math.sqrt(n), n / 3)));
  const ranks = midRanks(values);
  const acv = autocovariances(ranks, Math.min(n - 1, Math.ceil(Math.sqrt(n)) + laggedChecks(n)));
  const falloff = falloffLag(acv, n) ?? acv.length - 1;
  const estimate = politisWhite(acv, n);
  const chosen = Math.max(2 * falloff, Number.isFinite(estimate) ? Math.round(estimate) : floor);
  return Math.min(ceiling, Math.max(floor, chosen));
}

/**
 * Politis-White block length for the circular block bootstrap, from the autocovariances of n values
 * (NaN when the long-run variance is not positive).
 */
function politisWhite(acv: Float64Array, n: number): number {
  const maxLag = acv.length - 1;
  const falloff = falloffLag(acv, n);
  // No falloff within the lags computed: the window spans them all (the correlation is long).
  const m = falloff === undefined ? maxLag : 2 * Math.max(1, falloff);
  const window = Math.min(m, maxLag);
  let g = 0;
  let longRun = acv[0]!;
  for (let k = 1; k <= window; k++) {
    const weight = flatTop(k / m);
    g += 2 * weight * k * acv[k]!;
    longRun += 2 * weight * acv[k]!;
  }
  if (!(longRun > 0)) return Number.NaN;
  const dCircular = (4 / 3) * longRun * longRun;
  return Math.cbrt((2 * g * g) / dCircular) * Math.cbrt(n);
}

/** K_N: how many consecutive small autocorrelations mark the falloff. */
function laggedChecks(n: number): number {
  return Math.max(5, Math.ceil(Math.sqrt(Math.log10(n))));
}

/**
 * The smallest lag m after which K_N autocorrelations in a row are within 2 sqrt(log10(n) / n) of 0
 * (undefined when none is found within the lags computed).
 */
function falloffLag(acv: Float64Array, n: number): number | undefined {
  const checks = laggedChecks(n);
  const bound = 2 * Math.sqrt(Math.log10(n) / n);
  const variance = acv[0]!;
  if (!(variance > 0)) return 0;
  let quiet = 0;
  for (let k = 1; k < acv.length; k++) {
    quiet = Math.abs(acv[k]! / variance) < bound ? quiet + 1 : 0;
    if (quiet === checks) return k - checks;
  }
  return undefined;
}

/** The flat-top lag window: 1 up to half, then down to 0 at 1. */
function flatTop(t: number): number {
  const a = Math.abs(t);
  return a <= 0.5 ? 1 : a <= 1 ? 2 * (1 - a) : 0;
}

/** R(k) = (1/n) sum (x_t - mean)(x_{t+k} - mean), k = 0..maxLag. */
function autocovariances(x: Float64Array, maxLag: number): Float64Array {
  const n = x.length;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i]!;
  mean /= n;
  const centred = x.map((v) => v - mean);
  const acv = new Float64Array(maxLag + 1);
  for (let k = 0; k <= maxLag; k++) {
    let sum = 0;
    for (let t = 0; t + k < n; t++) sum += centred[t]! * centred[t + k]!;
    acv[k] = sum / n;
  }
  return acv;
}

/** Each value's rank (1-based), ties given their mean rank, so equal values carry no order of their own. */
export function midRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Float64Array(n);
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && values[order[j + 1]!]! === values[order[i]!]!) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]!] = rank;
    i = j + 1;
  }
  return ranks;
}
