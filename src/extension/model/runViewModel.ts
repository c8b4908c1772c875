/** Builds the panel's view model from a stored run: every figure the webview draws comes from here. */
import { tlsNotVerifiedSentence } from '../../shared/tlsNotVerified';
import { expectedLines } from '../../shared/judgement/expected';
import { compareTargets } from '../../shared/judgement/differences';
import { judgeOptionsOf, judgeRun } from '../../shared/judgement/judgeRun';
import { judgeLoad } from '../../shared/judgement/loadVerdict';
import { REQUEST_CROSSOVER_QUERIES } from '../../shared/judgement/crossovers';
import { sectionScope, type SectionScope } from '../../shared/judgement/sectionScope';
import { supports } from '../../shared/percentileSupport';
import { projectAt } from '../../shared/projection';
import { splitRun } from '../../shared/querySplit';
import { rowsLines } from '../../shared/rowsLines';
import type { ProjectionView } from '../../shared/projectionLines';
import type { LatencyStats, Measurement, RunResult } from '../../shared/result';
import {
  withEvidence,
  type ErrorRow,
  type LoadView,
  type RunEvidence,
  type RunViewModel,
  type ScheduleView,
  type ShownStats,
  type TargetCard,
  type WholeRunViewModel,
} from '../../shared/viewModel';
import { coldRows } from './coldRows';
import { logBins } from './histogramBins';
import { phaseViews } from './phaseViews';
import { projectionView } from './projectionViewModel';
import { timeSeries } from './timeSeries';
import { driverPackageLabels, WORKSPACE_WORDS } from '../../shared/driverPackages';
import { samplesPerKind } from '../../shared/judgement/shortenedCount';

/** The expected-latency chart's query counts: those the judgement looks for crossovers in. */
export const EXPECTED_MAX_QUERIES = REQUEST_CROSSOVER_QUERIES;

export interface RunViewOptions {
  /** RTTs (ms) of the projection chart (default DEFAULT_PROJECTION_RTTS_MS). */
  rttsMs?: readonly number[];
  /** The RTT (ms) to where the app runs (dbprobe.appRttMs): marked, and each card's figures there. */
  appRttMs?: number;
  /** dbprobe.appLocation's runner place, when the app's RTT is that place's per target instead. */
  appPlace?: string;
  /** `dbprobe.appRttMs` is 0: the app runs here, and the verdict answers with these figures. */
  appHere?: boolean;
}

/**
 * A run's view in two parts. Its evidence (the Differences and the crossovers: bootstrap intervals over
 * the run's samples) is the costliest part to build: a run panel posts `first` at once and the
 * evidence after it (src/extension/model/panelDelivery.ts), so the first paint does not wait for it.
 */
export interface RunViewParts {
  /** Every figure but the evidence (differences, expected.crossovers and expected.withinNoise absent). */
  first: RunViewModel;
  evidence(): RunEvidence;
}

/** The whole view at once (a run group's places, tests). */
export function buildRunViewModel(result: RunResult, options: RunViewOptions = {}): WholeRunViewModel {
  const parts = runViewParts(result, options);
  return withEvidence(parts.first, parts.evidence());
}

export function runViewParts(result: RunResult, options: RunViewOptions = {}): RunViewParts {
  return { first: firstPart(result, options), evidence: () => runEvidence(result, options) };
}

function runEvidence(result: RunResult, options: RunViewOptions): RunEvidence {
  // Derived here, not stored in the result: src/shared/differences.ts says why. Only targets of one
  // workload class are compared (SELECT 1 against PING says nothing), as the judgement ranks them.
  const differences = compareTargets(result);
  const judgement = judgeRun(result, judgeOptionsOf(options));
  // The crossovers are the judgement's own, decided by the rule its request ranking uses.
  const { crossovers, withinNoise } = judgement.requestCrossovers;
  return { crossovers, withinNoise, differences, judgement };
}

function firstPart(result: RunResult, options: RunViewOptions): RunViewModel {
  const projection = projectionView(result, options.rttsMs, options.appRttMs);
  // Each card's figures at the app come from its own line, apart or not.
  const atApp = appFigures(projection);
  const scope = sectionScope(result);
  const compared = (target: string) => !scope.apart.includes(target);
  const transports = new Map(result.targets.map((t) => [t.name, t.transport]));
  const workloads = new Map(result.targets.map((t) => [t.name, t.query]));
  const expectedRows = expectedLines(result, EXPECTED_MAX_QUERIES).filter((row) => compared(row.target));
  return {
    runId: result.id,
    appRttMs: options.appRttMs,
    appPlace: options.appPlace,
    title: runTitle(result),
    startedAt: result.startedAt,
    state: result.state,
    stopReason: result.stopReason,
    durationMs: Math.round(result.durationUs / 1000),
    location: locationLabel(result),
    environment: environmentLine(result),
    client: result.client,
    kinds: result.plan.kinds,
    iterations: samplesPerKind(result),
    warmup: result.plan.warmup,
    ...(scope.apartLine ? { apart: { targets: scope.apart, line: scope.apartLine } } : {}),
    cards: result.targets.map((t) => ({
      target: t.name,
      driver: t.driver,
      transport: t.transport,
      endpoint: t.endpoint,
      ...(t.tls?.insecure ? { tlsInsecure: tlsNotVerifiedSentence(t) } : {}),
      // A load kind's levels are not one figure: pooling them gave a "load p50" that meant nothing.
      ...loadLevelsOf(result, t.name),
      kinds: result.measurements
        .filter((m) => m.target === t.name && m.kind !== 'load')
        .map((m) => ({
          kind: m.kind,
          count: m.stats.count,
          errors: m.stats.errors,
          failed: m.failed,
          p50Us: m.stats.p50Us,
          p95Us: m.stats.p95Us,
          ...(supports(m.stats.count, 'p99Us') ? { p99Us: m.stats.p99Us } : {}),
          ...cardFailure(m),
          ...(serviceOf(m) ? { corrected: true as const } : {}),
          ...atApp(m),
        })),
    })),
    stats: result.measurements.map((m) => ({
      target: m.target,
      kind: m.kind,
      ...(workloads.has(m.target) ? { workload: workloads.get(m.target) } : {}),
      stats: shownStats(m.stats),
      warmupCount: m.warmup.count + m.warmup.errors,
      reused: m.reused,
      stoppedEarly: m.stoppedEarly,
      phases: m.phases,
      ...withService(m),
    })),
    expected: {
      maxQueries: EXPECTED_MAX_QUERIES,
      lines: expectedRows.map((row) => ({
        target: row.target,
        transport: transports.get(row.target) ?? '',
        totalsUs: row.totalsUs,
      })),
    },
    histograms: result.measurements
      .filter((m) => m.stats.count > 0)
      .map((m) => {
        const values = m.samples.values.flatMap((s) => (s.us === undefined ? [] : [s.us]));
        return { target: m.target, kind: m.kind, ...logBins(values) };
      }),
    series: result.measurements.map((m) => ({
      target: m.target,
      kind: m.kind,
      ...timeSeries(m.samples.values),
    })),
    errors: errorRows(result),
    ...loadViews(result),
    ...loadVerdicts(result),
    ...(result.plan.kinds.includes('cold') ? { cold: coldRows(result.measurements) } : {}),
    ...phaseViews(result.measurements),
    projection: scopedProjection(projection, scope),
    ...splitView(result, options.appRttMs),
    ...rowsView(result),
  };
}

/** Each target's time to the first row and to the last, under the split. */
function rowsView(result: RunResult): Pick<RunViewModel, 'rows'> {
  const rows = rowsLines(
    result.measurements,
    result.targets.map((t) => t.name),
  );
  return rows.length > 0 ? { rows } : {};
}

/** The projection's chart and figures for the targets the verdict ranks: the apart ones are said once. */
function scopedProjection(
  projection: ProjectionView | undefined,
  scope: SectionScope,
): ProjectionView | undefined {
  if (!projection || scope.apart.length === 0) return projection;
  const shown = (target: string) => !scope.apart.includes(target);
  return {
    ...projection,
    lines: projection.lines.filter((l) => shown(l.target)),
    floors: projection.floors.filter((f) => shown(f.target)),
  };
}

/** The split of each target's p50, here and at the app's RTT (the panel's stacked bars). */
function splitView(result: RunResult, appRttMs: number | undefined): Pick<RunViewModel, 'split'> {
  const names = result.targets.map((t) => t.name);
  const here = splitRun(result.measurements, names).splits;
  if (here.length === 0) return {};
  const atApp =
    appRttMs === undefined ? undefined : splitRun(result.measurements, names, appRttMs * 1000).splits;
  return { split: { here, ...(atApp ? { atApp } : {}) } };
}

/** The judgement's statements of each load target and level: per measurement, no resampling. */
function loadVerdicts(result: RunResult): Pick<RunViewModel, 'loadVerdicts'> {
  const verdicts = result.measurements.flatMap((m) => judgeLoad(m) ?? []);
  return verdicts.length > 0 ? { loadVerdicts: verdicts } : {};
}

function loadLevelsOf(result: RunResult, target: string): { loadLevels?: number } {
  const load = result.measurements.find((m) => m.target === target && m.kind === 'load')?.load;
  return load ? { loadLevels: load.levels.length } : {};
}

/**
 * A kind's p50 and p99 at the app's RTT, from the projection's own lines and projectAt: the p50 is
 * the chart's point there; the p99 keeps the same turns and floor (p99 − turns × floor + turns × RTT).
 */
function appFigures(projection: ProjectionView | undefined) {
  const app = projection?.appRttMs;
  const index = app === undefined ? -1 : (projection?.rttsMs.indexOf(app) ?? -1);
  return (m: Measurement): Pick<TargetCard['kinds'][number], 'app'> => {
    if (!projection || app === undefined || index < 0 || m.stats.count === 0) return {};
    const line = projection.lines.find((l) => l.target === m.target && l.kind === m.kind);
    const floor = projection.floors.find((f) => f.target === m.target)?.floorUs;
    const p50Us = line?.pointsUs[index];
    if (!line || p50Us === undefined || floor === undefined) return {};
    const p99 = supports(m.stats.count, 'p99Us')
      ? projectAt({ localUs: m.stats.p99Us - line.turns * floor, turns: line.turns }, app * 1000)
      : undefined;
    return {
      app: {
        p50Us,
        p99Us: p99,
        turns: line.turns,
        ...(line.lowerBound ? { lowerBound: true as const } : {}),
      },
    };
  };
}

/** The first failure of a kind with no successful sample, so its card says why (as the Markdown does). */
function cardFailure(m: Measurement): Pick<TargetCard['kinds'][number], 'failure'> {
  const first = m.firstErrors[0];
  if (m.stats.count > 0 || !first) return {};
  const stop = m.stoppedEarly ? ` (${m.stoppedEarly})` : '';
  return { failure: { errorClass: first.class, message: first.message + stop, hint: first.hint } };
}

/** The statistics without the tail percentiles the count cannot support. */
export function shownStats(stats: LatencyStats): ShownStats {
  const { p99Us, p999Us, ...rest } = stats;
  return {
    ...rest,
    ...(supports(stats.count, 'p99Us') ? { p99Us } : {}),
    ...(supports(stats.count, 'p999Us') ? { p999Us } : {}),
  };
}

export function runTitle(result: RunResult): string {
  const names = result.targets.map((t) => t.name);
  const shown = names.length > 3 ? `${names.slice(0, 3).join(', ')} +${names.length - 3}` : names.join(', ');
  return `DB Probe: ${shown || 'run'}`;
}

export function locationLabel(result: RunResult): string {
  const where = result.environment.location;
  return where.region && !where.label.includes(where.region)
    ? `${where.label} (${where.region})`
    : where.label;
}

function environmentLine(result: RunResult): string {
  const env = result.environment;
  const drivers = driverPackageLabels(env, WORKSPACE_WORDS).join(', ');
  return `${env.tool.name} ${env.tool.version} · Node ${env.node} · ${env.os.platform} ${env.os.arch} · ${env.cpus.count} x ${env.cpus.model} · clock ${env.clock.name}${drivers ? ` · ${drivers}` : ''}`;
}

/**
 * The service time (issue to answer) of an open-model load or a schedule, whose `stats` are then timed
 * from each intended start: the headline, as in the Markdown. Absent for results saved before it.
 */
function serviceOf(m: Measurement): LatencyStats | undefined {
  return m.load?.service ?? m.schedule?.serviceTotals;
}

function withService(m: Measurement): { service?: ShownStats } {
  const service = serviceOf(m);
  return service ? { service: shownStats(service) } : {};
}

/** The duration kinds' figures, only when the run has them (older views and runs stay unchanged). */
function loadViews(result: RunResult): Pick<RunViewModel, 'load' | 'schedules'> {
  const load = result.measurements.flatMap((m): LoadView[] => {
    const figures = m.load;
    if (!figures || figures.levels.length === 0) return [];
    // Open model: a level's own `stats` are its service time, `corrected` the headline.
    const corrected = figures.model === 'open' && figures.levels.every((l) => l.corrected);
    return [
      {
        target: m.target,
        figures,
        timedFrom: corrected ? 'intended start' : 'issue',
        levels: figures.levels.map((l) =>
          corrected && l.corrected
            ? { level: l.level, latency: l.corrected, service: l.stats }
            : { level: l.level, latency: l.stats },
        ),
      },
    ];
  });
  const schedules = result.measurements.flatMap((m): ScheduleView[] =>
    m.schedule
      ? [
          {
            target: m.target,
            figures: m.schedule,
            totals: m.schedule.totals,
            serviceTotals: m.schedule.serviceTotals,
          },
        ]
      : [],
  );
  return {
    ...(load.length > 0 ? { load } : {}),
    ...(schedules.length > 0 ? { schedules } : {}),
  };
}

function errorRows(result: RunResult): ErrorRow[] {
  const rows: ErrorRow[] = [];
  for (const m of result.measurements) {
    for (const [errorClass, count] of Object.entries(m.errorsByClass)) {
      if (!count) continue;
      const first = m.firstErrors.find((e) => e.class === errorClass) ?? m.firstErrors[0];
      rows.push({
        target: m.target,
        kind: m.kind,
        errorClass: errorClass as ErrorRow['errorClass'],
        count,
        message: first?.message ?? errorClass,
        hint: first?.hint ?? '',
      });
    }
    // A setup failure stops a target before any sample: it shows in firstErrors only.
    if (Object.keys(m.errorsByClass).length === 0 && m.firstErrors[0]) {
      const first = m.firstErrors[0];
      rows.push({
        target: m.target,
        kind: m.kind,
        errorClass: first.class,
        count: 0,
        message: first.message + (m.stoppedEarly ? ` (${m.stoppedEarly})` : ''),
        hint: first.hint,
      });
    }
  }
  return rows;
}
