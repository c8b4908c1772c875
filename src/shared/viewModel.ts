/**
 * What the run panel shows, computed in the extension host from a RunResult. The webview only draws
 * it: no timing, no statistics and no secrets ever reach the browser side.
 */
import type { ConnectAnatomy, TargetFloor } from './connectPhases';
import type { WireRow } from './wireRows';
import type { Comparison, ComparisonSet } from './judgement/differences';
import type { Crossover } from './judgement/crossovers';
import type { ErrorClass } from './errors';
import type { LoadFigures, ScheduleFigures } from './loadResult';
import type { ProjectionView } from './projectionLines';
import type { QuerySplit } from './querySplit';
import type { RowsLine } from './rowsLines';
import type { ChangeJudgement } from './judgement/judgeChanges';
import type { LoadVerdict, RunJudgement } from './judgement/judgeRun';
import type { ColdMode, ProbeKind } from './plan';
import type { ClientWatch, LatencyStats, Measurement, RunState, SignedStats } from './result';

export interface TargetCard {
  target: string;
  driver: string;
  transport: string;
  endpoint?: string;
  /**
   * Set when the server certificate was not checked (the target's `tls.insecure` or its connection
   * string's setting): the sentence every surface says of it (src/shared/tlsNotVerified.ts).
   */
  tlsInsecure?: string;
  kinds: {
    kind: ProbeKind;
    count: number;
    errors: number;
    failed: boolean;
    p50Us: number;
    p95Us: number;
    /** Absent when the count cannot support a p99 (fewer than 100 samples): "n too small". */
    p99Us?: number;
    /** Why the kind has no figure at all: its first failure (redacted), as the Markdown's Errors list. */
    failure?: { errorClass: ErrorClass; message: string; hint: string };
    /** The figures are timed from each intended start (open-model load, schedules): the card says so. */
    corrected?: true;
    /**
     * Projected to the app's RTT (RunViewModel.appRttMs) with the projection's one formula: the p50 as
     * the chart draws it, the p99 from the same local part and turns. Absent without an app RTT or
     * counted round trips; `lowerBound` when the kind's answers exceed one congestion window.
     */
    app?: { p50Us: number; p99Us?: number; turns: number; lowerBound?: true };
  }[];
  /** Load levels are not pooled into one figure: the card says where they are instead. */
  loadLevels?: number;
}

/**
 * The statistics as the panel shows them: a tail percentile the count cannot support is absent
 * (see src/shared/percentileSupport.ts), and `nTooSmall` names it.
 */
export type ShownStats = Omit<LatencyStats, 'p99Us' | 'p999Us'> & { p99Us?: number; p999Us?: number };

export interface StatsRow {
  target: string;
  kind: ProbeKind;
  /** What one sample ran (the target's query, or the driver default the result recorded). */
  workload?: string;
  stats: ShownStats;
  warmupCount: number;
  reused: string[];
  stoppedEarly?: string;
  /** Connect and first query apart (and DNS/TCP/handshake when observed), for kinds that connect. */
  phases?: Measurement['phases'];
  /**
   * Open-model load and schedules: `stats` are timed from each intended start (coordinated omission
   * corrected, the headline) and this is the service time (issue to answer, uncorrected) beside them.
   */
  service?: ShownStats;
}

/** One level of a load view: the headline latency and, in the open model, the service time beside it. */
export interface LoadLevelView {
  level: number;
  /** From each query's intended start in the open model (corrected); from its issue in the closed. */
  latency: LatencyStats;
  /** Open model: from each query's issue to its answer (uncorrected). */
  service?: LatencyStats;
}

export interface LoadView {
  target: string;
  figures: LoadFigures;
  /** What `levels[].latency` is timed from: the intended start (open model) or the issue (closed). */
  timedFrom: 'intended start' | 'issue';
  levels: LoadLevelView[];
}

export interface ScheduleView {
  target: string;
  figures: ScheduleFigures;
  /** Whole requests from each intended start (corrected): the headline. */
  totals: LatencyStats;
  /** Whole requests from each issue (uncorrected): the service time, when the result has it. */
  serviceTotals?: LatencyStats;
}

export interface ExpectedLine {
  target: string;
  transport: string;
  /** totalsUs[k-1] = expected wait for k sequential queries on one new connection. */
  totalsUs: number[];
}

export type { Crossover } from './judgement/crossovers';

export interface HistogramSeries {
  target: string;
  kind: ProbeKind;
  /** Bucket edges in microseconds; bins[i] counts samples in [edgesUs[i], edgesUs[i+1]). */
  edgesUs: number[];
  counts: number[];
}

export interface TimeSeries {
  target: string;
  kind: ProbeKind;
  /** [seconds since run start, latency ms]; failed samples are listed in `errors`. */
  points: [number, number][];
  errors: [number, ErrorClass][];
  /** Points left out to keep the chart light (every n-th kept). */
  thinnedFrom?: number;
}

export interface ErrorRow {
  target: string;
  kind: ProbeKind;
  errorClass: ErrorClass;
  count: number;
  message: string;
  hint: string;
}

/** The cold kind of one target: cold vs hot connect side by side, and cold start = cold - hot. */
export interface ColdRow {
  target: string;
  mode: ColdMode;
  /** Cold samples with a hot sample after them. */
  count: number;
  coldP50Us: number;
  hotP50Us: number;
  /** Connect alone (without the first query), when the driver reports it. */
  coldConnectP50Us?: number;
  hotConnectP50Us?: number;
  coldStart: SignedStats;
  /** How long making the target cold took, p50 (not part of any latency). */
  waitP50Ms: number;
}

export interface RunViewModel {
  runId: string;
  /** The RTT (ms) to where the app runs, from the one setting every surface reads (dbprobe.appRttMs). */
  appRttMs?: number;
  /** dbprobe.appLocation names a runner place: each target has its own RTT from there, not one. */
  appPlace?: string;
  title: string;
  startedAt: string;
  state: RunState;
  stopReason?: string;
  durationMs: number;
  location: string;
  environment: string;
  client: ClientWatch;
  kinds: ProbeKind[];
  /** Samples per target and kind: "100", or "40-100" where the default shortened to fit the time limit. */
  iterations: string;
  warmup: number;
  cards: TargetCard[];
  stats: StatsRow[];
  /**
   * Why targets alone in their workload are not in the comparisons below the verdict (expected
   * latency, projection, Differences), said once (judgement/sectionScope.ts); absent when none is.
   */
  apart?: { targets: string[]; line: string };
  expected: {
    maxQueries: number;
    /** The lines of the targets the verdict ranks: the apart ones are left out (see `apart`). */
    lines: ExpectedLine[];
    /**
     * The request-of-k crossovers of the one judgement (RunJudgement.requestCrossovers: the rule its
     * request ranking uses). Absent from a run panel's first message, as is withinNoise: see RunEvidence.
     */
    crossovers?: Crossover[];
    /** Pairs whose p50 lines cross but the verdict's rule does not establish a crossover. */
    withinNoise?: string[];
  };
  histograms: HistogramSeries[];
  series: TimeSeries[];
  errors: ErrorRow[];
  /**
   * Every pair of targets per kind: p50/p95 differences with bootstrap intervals (src/shared/differences.ts).
   * Absent from a run panel's first message: see RunEvidence.
   */
  differences?: ComparisonSet;
  /** `load` kind: each target's levels (throughput, latency, the knee). */
  load?: LoadView[];
  /** Each load target's statement and one per level, from the one judgement (judgement/loadVerdict.ts). */
  loadVerdicts?: LoadVerdict[];
  /**
   * The run's one judgement (judgement/judgeRun.ts): the verdict lines the panel states first, the
   * rankings its cards are sorted by, the why of each gap. Resampled like the Differences, so absent
   * from a run panel's first message: see RunEvidence.
   */
  judgement?: RunJudgement;
  /** `schedule` kind: each target's per-position figures and the model. */
  schedules?: ScheduleView[];
  /** One row per target the cold kind measured; absent when the run had no cold kind. */
  cold?: ColdRow[];
  /** Where each target's new connections spend their time (initial, p50 per step); absent when none split. */
  anatomy?: ConnectAnatomy[];
  /** Each target's network floor (initial TCP p50) and its kinds' p50 over it; absent when no TCP was seen. */
  floors?: TargetFloor[];
  /** What crossed each target's sockets per kind (round trips, bytes, TLS, client CPU); absent when none counted. */
  wire?: WireRow[];
  /** Each target's p50 projected to the app's distance; absent when no round trips were counted. */
  projection?: ProjectionView;
  /**
   * Where each target's query time goes (database, distance, client, rest: querySplit.ts), here and
   * at the app's RTT when one is set; absent when no target could be split.
   */
  split?: { here: QuerySplit[]; atApp?: QuerySplit[] };
  /** Time to the first row and to the last (rowsLines.ts); absent when no answer's rows were counted. */
  rows?: RowsLine[];
}

/**
 * What a run's view draws from resampling the run's samples (bootstrap intervals, the costliest part
 * of the view): the judgement (verdict strip, card order), the Differences between targets and the
 * crossovers of the expected-latency lines. A run
 * panel gets them in an `evidence` message after the rest of the view, so its first paint does not wait
 * for them (src/extension/model/panelDelivery.ts).
 */
export interface RunEvidence {
  differences: ComparisonSet;
  crossovers: Crossover[];
  withinNoise: string[];
  judgement: RunJudgement;
}

/** A run's view with its evidence in place, as a run group's places and the tests read it. */
export type WholeRunViewModel = RunViewModel & {
  differences: ComparisonSet;
  expected: RunViewModel['expected'] & { crossovers: Crossover[]; withinNoise: string[] };
  judgement: RunJudgement;
};

/** `model` with `evidence` in place. */
export function withEvidence(model: RunViewModel, evidence: RunEvidence): WholeRunViewModel {
  const { differences, crossovers, withinNoise, judgement } = evidence;
  return { ...model, differences, judgement, expected: { ...model.expected, crossovers, withinNoise } };
}

export interface CompareSide {
  runId: string;
  label: string;
  startedAt: string;
  location: string;
}

export interface CompareRow {
  target: string;
  kind: ProbeKind;
  /** Undefined when the target/kind has no successful samples in that run. */
  a?: { p50Us: number; p95Us: number };
  b?: { p50Us: number; p95Us: number };
  /** b - a, when both sides have figures. */
  delta?: { p50Us: number; p95Us: number; p50Ratio: number; p95Ratio: number };
}

export interface CompareViewModel {
  a: CompareSide;
  b: CompareSide;
  /** The one judgement of two runs (judgement/judgeChanges.ts): its lines first, its verdicts colour the table. */
  changes?: ChangeJudgement;
  rows: CompareRow[];
  /** Per target and kind in both runs: B - A at p50/p95 with bootstrap intervals. */
  differences: Comparison[];
}

/** One place's figures for a target and kind, in the side-by-side table and chart. */
export interface PlaceFigures {
  count: number;
  errors: number;
  failed: boolean;
  p50Us: number;
  p95Us: number;
  p99Us: number;
}

/** A place of a run group: this machine, or a runner labelled with its region. */
export interface PlaceColumn {
  label: string;
  /** Where exactly: "VS Code extension host", or the runner's name and runtime. */
  detail: string;
  kind: 'local' | 'runner';
  runId?: string;
  state?: RunState;
  stopReason?: string;
  /** What went wrong with the place itself (unreachable, killed mid-run), naming it. */
  error?: string;
  skipped: { target: string; reason: string }[];
}

export interface AcrossRow {
  target: string;
  kind: ProbeKind;
  /** cells[i] belongs to places[i]; null where that place has no figures for this target and kind. */
  cells: (PlaceFigures | null)[];
}

/** One plan run in several places at once, side by side; each place's full view for the details. */
export interface GroupViewModel {
  groupId: string;
  title: string;
  startedAt: string;
  kinds: ProbeKind[];
  places: PlaceColumn[];
  rows: AcrossRow[];
  /** details[i] is places[i]'s run view; null where the place produced no result. */
  details: (RunViewModel | null)[];
}

/**
 * A run under way, for the panel that opens as it starts: names, counts, and each row's running p50 of
 * the samples measured so far (timed in the probe thread, summed on the host; never a connection
 * string). Built by the extension's LiveProgress.
 */
export interface ProgressViewModel {
  /** The run's target names, joined. */
  title: string;
  /** Since the run started, on the extension host's monotonic clock (not a latency). */
  elapsedMs: number;
  /** 0-100, the whole run (every place). */
  percent: number;
  /** `cancelling`: Cancel was pressed; the run is stopping and keeps what it measured. */
  state: 'running' | 'cancelling';
  places: ProgressPlaceView[];
}

export interface ProgressPlaceView {
  /** "this machine", or a runner's label. */
  label: string;
  state: 'waiting' | 'running' | 'done' | 'failed';
  percent: number;
  rows: ProgressRowView[];
}

export interface ProgressRowView {
  target: string;
  kind: ProbeKind;
  /** Samples taken (warm-up included), or queries answered for the duration kinds. */
  done: number;
  /** Samples asked for; 0 when the kind runs for a duration instead (load, schedule). */
  asked: number;
  errors: number;
  /** The p50 of the row's measured samples so far (warm-up left out), once it has one. */
  p50Us?: number;
  /** A load row's levels that have finished: what each did (its latency comes with the result). */
  levels?: ProgressLevelView[];
  /** What the row is doing besides counting: a cold wait, a load level, could not start. */
  note?: string;
}

export interface ProgressLevelView {
  /** Connections, or arrivals per second in the open model. */
  level: number;
  completed: number;
  errors: number;
  /** Answered per second of the level's duration. */
  achievedRate: number;
  /** Fixed-rate levels: starts issued late, and starts never issued. */
  late: number;
  dropped: number;
}
