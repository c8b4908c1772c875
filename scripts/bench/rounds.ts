/**
 * The benchmarks' one way to say how sure they are. A bench measures in rounds (each round measures
 * both sides of every comparison, interleaved, in one process); a figure is a statistic over the
 * rounds so far (a ratio of the two sides). Rounds are added until every figure's 95% interval (a
 * percentile bootstrap over rounds in blocks of consecutive rounds, seeded by the figure's name, so a
 * result file always gives the same interval) has a half-width of at most 1% of the figure, or a round or time cap is reached:
 * then the figure is printed "not settled", with its interval. Every run also writes its figures, the
 * machine and the command to `bench-results/<bench>.json` (the run before it kept as
 * `<bench>.previous.json`), which `npm run docs:figures` turns into docs/benchmarks.md.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import { loadAverage, machineFacts } from './machine';
import * as path from 'node:path';
import { blockLength } from '../../src/shared/judgement/blockLength';
import { mulberry32, seedFromText } from '../../src/shared/judgement/bootstrap';
import type { BenchFigure, BenchResult } from './result';

/** A figure: its name, its unit ('ratio' unless said), and how to read it from a set of rounds. */
export interface FigureDef<R> {
  name: string;
  unit?: string;
  /** What it compares, for the docs. */
  about: string;
  value: (rounds: readonly R[]) => number;
}

export interface RoundsOptions<R> {
  bench: string;
  /** The command a reader runs to measure it again. */
  command: string;
  figures: FigureDef<R>[];
  round: (index: number) => Promise<R>;
  minRounds: number;
  maxRounds: number;
  /** Stop adding rounds after this many seconds (the figure is then "not settled" if still wide). */
  timeCapS: number;
  /** Check the intervals after every this many rounds (a bootstrap costs time, so not after each). */
  checkEvery: number;
  /** Half-width / figure at or below which a figure is settled. */
  tolerance?: number;
  /** Anything else worth keeping beside the figures (a ceiling, sample counts); printed and saved. */
  context?: (rounds: readonly R[]) => Record<string, string | number>;
  /** Where the JSON goes; `bench-results/` under the working directory by default. */
  outDir?: string;
  resamples?: number;
}

export const SETTLED_TOLERANCE = 0.01;
const RESAMPLES = 2_000;
/** Resamples for the checks between rounds: enough to tell settled from not, cheap enough to repeat. */
const CHECK_RESAMPLES = 500;

/**
 * The 95% percentile-bootstrap interval of `value` over rounds, resampled in blocks of consecutive
 * rounds (a circular block bootstrap, as src/shared/bootstrap.ts does for samples). Rounds are not
 * alike on a shared machine: its load drifts over minutes, so neighbouring rounds are slow or fast
 * together, and resampling rounds one at a time gave intervals of two consecutive runs that did not
 * overlap. Blocks keep a slow stretch together, so drift widens the interval instead of averaging
 * out. The block length is read from the figure of each round alone (`value([round])`), in the
 * order the rounds ran; `block` overrides it (1: rounds as independent).
 */
export function roundsInterval<R>(
  rounds: readonly R[],
  value: (rounds: readonly R[]) => number,
  seedText: string,
  resamples = RESAMPLES,
  block = roundsBlockLength(rounds, value),
): [low: number, high: number] {
  const random = mulberry32(seedFromText(seedText));
  const n = rounds.length;
  const length = Math.max(1, Math.min(n, Math.round(block)));
  const draws = new Float64Array(resamples);
  const picked: R[] = new Array<R>(n);
  for (let r = 0; r < resamples; r++) {
    for (let filled = 0; filled < n;) {
      const start = Math.floor(random() * n);
      const take = Math.min(length, n - filled);
      for (let k = 0; k < take; k++) picked[filled + k] = rounds[(start + k) % n]!;
      filled += take;
    }
    draws[r] = value(picked);
  }
  draws.sort();
  const at = (q: number): number =>
    draws[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))]!;
  return [at(0.025), at(0.975)];
}

/** The block length for rounds, from each round's own figure in the order they ran. */
export function roundsBlockLength<R>(rounds: readonly R[], value: (rounds: readonly R[]) => number): number {
  return seriesBlockLength(rounds.map((round) => value([round])));
}

/** The block length for a series of per-round figures (see roundsBlockLength). */
function seriesBlockLength(each: readonly number[]): number {
  // A figure one round cannot give (a ratio over an empty side) leaves no series: the n^(1/3) floor.
  if (!each.every(Number.isFinite)) return Math.max(1, Math.ceil(Math.cbrt(each.length)));
  return blockLength(each);
}

/**
 * The figure over the first and the second half of the rounds. A bootstrap over rounds assumes they
 * are alike; a machine whose load changed mid-run (5 to 1.6) gives a narrow interval around a mix of
 * two figures, which the next run does not reproduce. So a figure whose halves differ by more than
 * the settled interval's full width (2 x tolerance) has drifted, and is not settled however narrow.
 */
export function halvesOf<R>(rounds: readonly R[], value: (rounds: readonly R[]) => number): [number, number] {
  const mid = Math.floor(rounds.length / 2);
  return [value(rounds.slice(0, mid)), value(rounds.slice(mid))];
}

export function hasDrifted(value: number, halves: [number, number], tolerance = SETTLED_TOLERANCE): boolean {
  return !(Math.abs(halves[0] - halves[1]) <= 2 * tolerance * Math.abs(value));
}

/** Settled when the interval's half-width is within `tolerance` of the figure itself. */
export function isSettled(value: number, low: number, high: number, tolerance = SETTLED_TOLERANCE): boolean {
  return Number.isFinite(value) && (high - low) / 2 <= tolerance * Math.abs(value);
}

/** `name=1.0113 [1.0051, 1.0170] rounds=600`, with "not settled" when it is not. */
export function formatFigure(figure: BenchFigure, rounds: number): string {
  const digits = figure.unit === 'ratio' ? 4 : 1;
  const f = (x: number): string => x.toFixed(digits);
  const drift =
    figure.halves && figure.drifted
      ? ` (drifted: ${f(figure.halves[0])} in the first half of the rounds, ${f(figure.halves[1])} in the second)`
      : '';
  return `${figure.name}=${f(figure.value)} [${f(figure.low)}, ${f(figure.high)}] rounds=${rounds}${figure.settled ? '' : ' not settled'}${drift}`;
}

/**
 * Each figure's value per round, in round order, kept between checks: rounds are only appended, and
 * reading a figure from every round again at each check would make the checks' cost (and garbage,
 * which lands in the next measured block) grow with the square of the rounds.
 */
type PerRound = Map<string, number[]>;

function figuresOf<R>(
  rounds: readonly R[],
  defs: readonly FigureDef<R>[],
  tolerance: number,
  resamples: number,
  perRound: PerRound = new Map(),
): BenchFigure[] {
  return defs.map((def) => {
    const value = def.value(rounds);
    const each = perRound.get(def.name) ?? [];
    for (let i = each.length; i < rounds.length; i++) each.push(def.value([rounds[i]!]));
    perRound.set(def.name, each);
    const block = seriesBlockLength(each);
    const [low, high] = roundsInterval(rounds, def.value, def.name, resamples, block);
    const halves = halvesOf(rounds, def.value);
    const drifted = rounds.length >= 2 && hasDrifted(value, halves, tolerance);
    return {
      name: def.name,
      unit: def.unit ?? 'ratio',
      about: def.about,
      value,
      low,
      high,
      blockLength: block,
      settled: isSettled(value, low, high, tolerance) && !drifted,
      halves,
      drifted,
    };
  });
}

/** Runs rounds until every figure is settled or a cap is reached; prints and saves the figures. */
export async function measureInRounds<R>(options: RoundsOptions<R>): Promise<BenchResult> {
  const tolerance = options.tolerance ?? SETTLED_TOLERANCE;
  const resamples = options.resamples ?? RESAMPLES;
  const started = Date.now();
  const loadAverageStart = loadAverage();
  const deadline = started + options.timeCapS * 1000;
  const rounds: R[] = [];
  const perRound: PerRound = new Map();
  let stoppedBy: BenchResult['stoppedBy'] = 'round cap';
  while (rounds.length < options.maxRounds) {
    rounds.push(await options.round(rounds.length));
    const due = rounds.length >= options.minRounds && rounds.length % options.checkEvery === 0;
    const check = Math.min(resamples, CHECK_RESAMPLES);
    if (due && figuresOf(rounds, options.figures, tolerance, check, perRound).every((f) => f.settled)) {
      stoppedBy = 'settled';
      break;
    }
    if (Date.now() >= deadline && rounds.length >= options.minRounds) {
      stoppedBy = 'time cap';
      break;
    }
  }
  const figures = figuresOf(rounds, options.figures, tolerance, resamples, perRound);
  const result: BenchResult = {
    bench: options.bench,
    command: options.command,
    date: new Date().toISOString(),
    seconds: Math.round((Date.now() - started) / 100) / 10,
    rounds: rounds.length,
    stoppedBy,
    tolerance,
    confidence: 0.95,
    machine: machine(loadAverageStart),
    figures,
    context: options.context?.(rounds) ?? {},
  };
  for (const [key, value] of Object.entries(result.context)) console.log(`${key}: ${value}`);
  for (const figure of figures) console.log(formatFigure(figure, rounds.length));
  console.log(
    `${rounds.length} rounds in ${result.seconds} s (${stoppedBy}); load average ${result.machine.loadAverageStart[0]} at the start, ${result.machine.loadAverage[0]} at the end`,
  );
  const file = writeResult(result, options.outDir ?? path.join(process.cwd(), 'bench-results'));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
  return result;
}

function machine(loadAverageStart: number[]): BenchResult['machine'] {
  return {
    hostname: os.hostname(),
    ...machineFacts(),
    loadAverageStart,
    loadAverage: loadAverage(),
  };
}

/** Writes `<bench>.json`, keeping the run before as `<bench>.previous.json` (the docs set the two side by side). */
function writeResult(result: BenchResult, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${result.bench}.json`);
  if (existsSync(file)) renameSync(file, path.join(dir, `${result.bench}.previous.json`));
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}
