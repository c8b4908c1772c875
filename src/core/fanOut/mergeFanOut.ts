/**
 * One result from the places of a fanned-out load run: every measurement, level and schedule position
 * merges through its encoded histogram (core/merge.ts), so percentiles are exact; throughput, achieved
 * rates and start counts (asked, started, late, dropped) add up; the thresholds and the knee are judged
 * again on the merged level. What each place measured stays beside it, under `fanOut`.
 */
import { LOAD_DEFAULTS, SCHEDULE_DEFAULTS } from '../../shared/loadPlan';
import type {
  FanOutFigures,
  FanOutPlaceFigures,
  FanOutPlaceLevel,
  LoadFigures,
  LoadLevelFigures,
  ScheduleFigures,
  StartFigures,
} from '../../shared/loadResult';
import type { PlanSpec, ProbeKind } from '../../shared/plan';
import type {
  ClientWatch,
  EncodedHistogram,
  LatencyStats,
  Measurement,
  RunResult,
} from '../../shared/result';
import { clientCeiling } from '../clientWatch';
import { findKnee, judgeLevel, scheduleModel } from '../load/figures';
import { round3 } from '../load/startFigures';
import { mergeHistograms } from '../merge';

export interface FanOutPart {
  label: string;
  /** The place's result, or the partial one of a failed place; absent when nothing arrived. */
  result?: RunResult;
  /** Why the place failed, redacted. */
  failure?: string;
}

export interface FanOutRun {
  /** The whole run's plan, before the split. */
  plan: PlanSpec;
  split: FanOutFigures['split'];
  note: string;
  startAtMs: number;
}

const FIRST_ERRORS_KEPT = 5;

export function mergeFanOut(run: FanOutRun, parts: FanOutPart[]): RunResult | undefined {
  const results = parts.flatMap((p) => (p.result ? [p.result] : []));
  const first = results[0];
  if (!first) return undefined;
  const keys = new Map<string, { target: string; kind: ProbeKind }>();
  for (const r of results)
    for (const m of r.measurements) keys.set(key(m), { target: m.target, kind: m.kind });
  const measurements = [...keys.values()].map(({ target, kind }) =>
    mergeMeasurement(
      run,
      parts.map((p) => p.result?.measurements.find((m) => m.target === target && m.kind === kind)),
      parts,
    ),
  );
  const unfinished = results.filter((r) => r.state !== 'completed');
  const failedPlaces = parts.filter((p) => p.failure);
  const reasons = [
    ...unfinished.map((r) => `${labelOf(parts, r)}: ${r.stopReason ?? r.state}`),
    ...failedPlaces.filter((p) => !p.result).map((p) => `${p.label}: ${p.failure}`),
  ];
  const ending =
    unfinished.length === 0 && failedPlaces.length === 0
      ? { state: 'completed' as const }
      : {
          state: unfinished.some((r) => r.state === 'timedOut')
            ? ('timedOut' as const)
            : ('cancelled' as const),
          stopReason: reasons.join('; ') || 'a place failed',
        };
  const { fanOut: _fanOut, ...plan } = first.plan;
  const { stopReason: _stopReason, state: _state, ...body } = first;
  const labels = parts.map((p) => p.label).join(' + ');
  return {
    ...body,
    ...ending,
    startedAt: results.map((r) => r.startedAt).sort()[0] ?? first.startedAt,
    durationUs: Math.max(...results.map((r) => r.durationUs)),
    plan: {
      ...plan,
      ...(run.plan.load && plan.load ? { load: run.plan.load } : {}),
      ...(run.plan.schedule && plan.schedule ? { schedule: run.plan.schedule } : {}),
    },
    environment: {
      ...first.environment,
      location: {
        kind: first.environment.location.kind,
        label: `fan-out over ${parts.length} places: ${labels}`,
      },
    },
    measurements,
    client: mergeClients(parts),
  } as RunResult;
}

function key(m: Measurement): string {
  return `${m.kind}\u0000${m.target}`;
}

function labelOf(parts: FanOutPart[], result: RunResult): string {
  return parts.find((p) => p.result === result)?.label ?? result.environment.location.label;
}

function mergeMeasurement(
  run: FanOutRun,
  own: (Measurement | undefined)[],
  parts: FanOutPart[],
): Measurement {
  const present = own.filter((m): m is Measurement => m !== undefined);
  const base = present[0]!;
  const { histogram, stats } = mergeHistograms(
    present.map((m) => ({ histogram: m.histogram, errors: m.stats.errors })),
  );
  const errorsByClass: Measurement['errorsByClass'] = {};
  for (const m of present)
    for (const [cls, n] of Object.entries(m.errorsByClass))
      errorsByClass[cls as keyof typeof errorsByClass] =
        (errorsByClass[cls as keyof typeof errorsByClass] ?? 0) + (n ?? 0);
  const values = present.flatMap((m) => m.samples.values).sort((a, b) => a.atUs - b.atUs);
  const cap = base.samples.cap;
  const merged: Measurement = {
    ...base,
    stats,
    histogram,
    samples: {
      cap,
      dropped: present.reduce((sum, m) => sum + m.samples.dropped, 0) + Math.max(0, values.length - cap),
      values: values.slice(0, cap),
    },
    errorsByClass,
    firstErrors: present.flatMap((m) => m.firstErrors).slice(0, FIRST_ERRORS_KEPT),
    failed: present.every((m) => m.failed),
  };
  const loads = own.map((m) => m?.load);
  if (present.some((m) => m.load)) merged.load = mergeLoad(run, loads, parts);
  const schedules = own.map((m) => m?.schedule);
  if (present.some((m) => m.schedule)) merged.schedule = mergeSchedule(run, schedules, parts);
  return merged;
}

function mergeLoad(run: FanOutRun, loads: (LoadFigures | undefined)[], parts: FanOutPart[]): LoadFigures {
  const settings = run.plan.load ?? LOAD_DEFAULTS;
  const base = loads.find((l) => l !== undefined)!;
  const reached = Math.max(...loads.map((l) => l?.levels.length ?? 0));
  const levels: LoadLevelFigures[] = [];
  for (let i = 0; i < reached; i++) {
    const own = loads.map((l) => l?.levels[i]).filter((l): l is LoadLevelFigures => l !== undefined);
    // A place that measured earlier levels but not this one stopped before it: the level lacks its
    // share, so it is cut, whatever the other places ran.
    const short = loads.some((l) => l !== undefined && l.levels.length <= i);
    const level = mergeLevel(settings.levels[i] ?? 0, own, short);
    const tripped = judgeLevel(level, settings);
    levels.push(tripped === undefined ? level : { ...level, tripped });
  }
  const knee = findKnee(levels);
  // The sweep's ceiling is the client's where a merged level was client-limited and stopped growing.
  const ceiling = clientCeiling(levels);
  const { knee: _knee, fanOut: _fanOut, service: _service, clientCeiling: _ceiling, ...rest } = base;
  // Open model: the service time of every place's every level, merged exactly like the levels.
  const service =
    settings.model === 'open'
      ? mergedStats(loads.flatMap((l) => l?.levels ?? []).map((l) => [l.histogram, l.stats]))
      : undefined;
  return {
    ...rest,
    ...(settings.model === 'open' ? { connections: settings.connections } : {}),
    levels,
    ...(knee ? { knee } : {}),
    ...(ceiling !== undefined ? { clientCeiling: ceiling } : {}),
    ...(service ? { service } : {}),
    fanOut: fanOutFigures(
      run,
      parts,
      loads.map((l) => l?.levels.map(placeLevel) ?? []),
    ),
  };
}

/** Shares that sat the level out (LoadLevelFigures.idle) add nothing, not even a client verdict. */
function mergeLevel(level: number, shares: LoadLevelFigures[], short: boolean): LoadLevelFigures {
  const own = shares.filter((l) => !l.idle);
  const cut = short || own.some((l) => l.cut);
  const stats = mergedStats(own.map((l) => [l.histogram, l.stats]));
  const corrected = own.some((l) => l.corrected)
    ? mergedStats(own.map((l) => [l.correctedHistogram, l.corrected]))
    : undefined;
  const starts = own.some((l) => l.starts)
    ? addStarts(own.flatMap((l) => (l.starts ? [l.starts] : [])))
    : undefined;
  return {
    level,
    durationUs: Math.max(0, ...own.map((l) => l.durationUs)),
    ...(cut ? { cut: true as const } : {}),
    // Each share's throughput is over the time it ran: a cut share's over its own shorter time.
    throughput: round3(own.reduce((sum, l) => sum + l.throughput, 0)),
    stats,
    ...(corrected ? { corrected } : {}),
    ...(starts ? { starts } : {}),
    ...mergedClientLimit(own),
  };
}

/** Exact when every part carries its histogram (a fan-out place always does). */
function mergedStats(parts: [EncodedHistogram | undefined, LatencyStats | undefined][]): LatencyStats {
  const inputs = parts.flatMap(([histogram, stats]) =>
    histogram && stats ? [{ histogram, errors: stats.errors }] : [],
  );
  return mergeHistograms(inputs).stats;
}

/**
 * Counts and rates add up; lateness percentiles merge exactly from the places' lateness histograms
 * (every place of this version sends them), else they are the worst place's.
 */
function addStarts(all: StartFigures[]): StartFigures {
  const sum = (f: (s: StartFigures) => number) => all.reduce((total, s) => total + f(s), 0);
  const worst = (f: (s: StartFigures) => number) => Math.max(...all.map(f));
  const histograms = all.flatMap((s) => (s.latenessHistogram ? [s.latenessHistogram] : []));
  const exact =
    histograms.length === all.length && all.length > 0
      ? mergeHistograms(histograms.map((histogram) => ({ histogram, errors: 0 }))).stats
      : undefined;
  return {
    asked: sum((s) => s.asked),
    started: sum((s) => s.started),
    late: sum((s) => s.late),
    lateAfterUs: all[0]?.lateAfterUs ?? 0,
    dropped: sum((s) => s.dropped),
    askedRate: round3(sum((s) => s.askedRate)),
    achievedRate: round3(sum((s) => s.achievedRate)),
    latenessP50Us: exact ? exact.p50Us : worst((s) => s.latenessP50Us),
    latenessP99Us: exact ? exact.p99Us : worst((s) => s.latenessP99Us),
    latenessMaxUs: exact ? exact.maxUs : worst((s) => s.latenessMaxUs),
  };
}

/**
 * A level the client limited in any place (or thread) is client-limited merged: that place's share
 * was held back, and so the sum. The CPU figure is the busiest place's.
 */
function mergedClientLimit(
  own: LoadLevelFigures[],
): Pick<LoadLevelFigures, 'clientCpuPercent' | 'clientLimited'> {
  const cpus = own.flatMap((l) => (l.clientCpuPercent !== undefined ? [l.clientCpuPercent] : []));
  const limited = own.filter((l) => l.clientLimited !== undefined);
  const busiest = limited.reduce<LoadLevelFigures | undefined>(
    (top, l) => (top === undefined || (l.clientCpuPercent ?? 0) > (top.clientCpuPercent ?? 0) ? l : top),
    undefined,
  );
  return {
    ...(cpus.length > 0 ? { clientCpuPercent: Math.max(...cpus) } : {}),
    ...(busiest?.clientLimited
      ? {
          clientLimited:
            own.length > 1
              ? `${busiest.clientLimited} (${limited.length} of ${own.length} shares limited)`
              : busiest.clientLimited,
        }
      : {}),
  };
}

function placeLevel(level: LoadLevelFigures): FanOutPlaceLevel {
  return {
    share: level.level,
    ...(level.idle ? { idle: true as const } : {}),
    ...(level.cut ? { cut: true as const } : {}),
    throughput: level.throughput,
    count: level.stats.count,
    errors: level.stats.errors,
    p50Us: (level.corrected ?? level.stats).p50Us,
    p99Us: (level.corrected ?? level.stats).p99Us,
    ...(level.starts
      ? { achievedRate: level.starts.achievedRate, late: level.starts.late, dropped: level.starts.dropped }
      : {}),
    ...(level.startLagMs !== undefined ? { startLagMs: level.startLagMs } : {}),
  };
}

function mergeSchedule(
  run: FanOutRun,
  schedules: (ScheduleFigures | undefined)[],
  parts: FanOutPart[],
): ScheduleFigures {
  const settings = run.plan.schedule ?? SCHEDULE_DEFAULTS;
  const own = schedules.filter((s): s is ScheduleFigures => s !== undefined);
  const base = own[0]!;
  const positions = base.positions.map((_, k) =>
    mergedStats(own.map((s) => [s.positionHistograms?.[k], s.positions[k]])),
  );
  const totals = mergedStats(own.map((s) => [s.totalsHistogram, s.totals]));
  const model = scheduleModel(positions, totals);
  const {
    model: _model,
    startLagMs: _lag,
    positionHistograms: _ph,
    totalsHistogram: _th,
    fanOut: _fanOut,
    // Each place's service totals carry no histogram to merge exactly: the merged result leaves them out.
    serviceTotals: _serviceTotals,
    ...rest
  } = base;
  const cut = own.some((s) => s.cut);
  const { cut: _cut, durationUs: _durationUs, ...shared } = rest;
  const durations = own.flatMap((s) => (s.durationUs !== undefined ? [s.durationUs] : []));
  return {
    ...shared,
    rate: settings.rate,
    ...(durations.length > 0 ? { durationUs: Math.max(...durations) } : {}),
    ...(cut ? { cut: true as const } : {}),
    starts: addStarts(own.map((s) => s.starts)),
    positions,
    totals,
    ...(model ? { model } : {}),
    fanOut: fanOutFigures(
      run,
      parts,
      schedules.map((s) =>
        s
          ? [
              {
                share: s.rate,
                ...(s.cut ? { cut: true as const } : {}),
                throughput: s.starts.achievedRate,
                count: s.totals.count,
                errors: s.totals.errors,
                p50Us: s.totals.p50Us,
                p99Us: s.totals.p99Us,
                achievedRate: s.starts.achievedRate,
                late: s.starts.late,
                dropped: s.starts.dropped,
                ...(s.startLagMs !== undefined ? { startLagMs: s.startLagMs } : {}),
              },
            ]
          : [],
      ),
    ),
  };
}

function fanOutFigures(run: FanOutRun, parts: FanOutPart[], levels: FanOutPlaceLevel[][]): FanOutFigures {
  const places: FanOutPlaceFigures[] = parts.map((p, i) => ({
    label: p.label,
    levels: levels[i] ?? [],
    ...(p.failure ? { failure: p.failure } : {}),
  }));
  return { split: run.split, note: run.note, startAt: new Date(run.startAtMs).toISOString(), places };
}

/** The busiest client speaks for the run: one bottlenecked place makes the merged figures suspect. */
function mergeClients(parts: FanOutPart[]): ClientWatch {
  const watched = parts.flatMap((p) => (p.result ? [{ label: p.label, client: p.result.client }] : []));
  const notes = watched.filter((w) => w.client.note).map((w) => `${w.label}: ${w.client.note}`);
  return {
    eventLoopDelayP99Us: Math.max(0, ...watched.map((w) => w.client.eventLoopDelayP99Us)),
    eventLoopDelayMaxUs: Math.max(0, ...watched.map((w) => w.client.eventLoopDelayMaxUs)),
    cpuPercent: Math.max(0, ...watched.map((w) => w.client.cpuPercent)),
    bottleneck: watched.some((w) => w.client.bottleneck),
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
  };
}
