/**
 * The `load` and `schedule` kinds inside a run: each target in turn (they are not interleaved: a
 * target's whole duration is one piece), outcomes recorded in the target's MeasurementState so
 * errors, kept samples and the histogram work as for every kind, and the kind's own figures attached.
 */
import type { ProbeEvent } from '../../shared/events';
import { LOAD_DEFAULTS, SCHEDULE_DEFAULTS } from '../../shared/loadPlan';
import type { LoadLevelFigures, RawRequest } from '../../shared/loadResult';
import type { PlanSpec, ProbeKind } from '../../shared/plan';
import type { Redactor } from '../../shared/redact';
import type { LatencyStats } from '../../shared/result';
import { elapsedUs } from '../clock';
import { toFailure } from '../failure';
import { encodeHistogram } from '../histogram';
import { mergeHistograms } from '../merge';
import { LatencyRecorder } from '../stats';
import type { SampleContext } from '../kinds';
import type { MeasurementState } from '../measurementState';
import type { TargetSlot } from '../slot';
import { clientCeiling, type ClientWatcher } from '../clientWatch';
import { runClosedLevel, type LevelOutcome } from './closedModel';
import { findKnee, judgeLevel, scheduleModel } from './figures';
import { runOpenLevel } from './openModel';
import { askedStarts, shareRate } from './pacer';
import { placeShare, wholeShare } from './shares';
import { LevelBusy } from './levelBusy';
import { levelClientVerdict } from './levelClient';
import { LevelProgress } from './levelProgress';
import { runRequestSchedule } from './requestSchedule';
import type { LevelHooks, OutcomeSink, RequestTimes } from './sink';
import { round3, type StartTally } from './startFigures';
import { commonStartMs, waitForWallClock } from './timetable';

export type DurationKind = 'load' | 'schedule';

export function isDurationKind(kind: ProbeKind): kind is DurationKind {
  return kind === 'load' || kind === 'schedule';
}

/**
 * Samples a kind reports through `sample` events, for progress bars. A load level issues thousands
 * of queries a second, too many to stream one event each: it reports per target (`targetDone`).
 */
export function eventSamplesPerTarget(plan: PlanSpec, kind: ProbeKind): number {
  if (kind === 'schedule') {
    const s = plan.schedule ?? SCHEDULE_DEFAULTS;
    return askedStarts(s.rate, s.durationS, placeShare(plan));
  }
  if (kind === 'load') return 0;
  return plan.warmup + plan.iterations;
}

export interface DurationKindDeps {
  ctx: SampleContext;
  redactor: Redactor;
  /** The run's start, for each outcome's `atUs`. */
  runStartNs: bigint;
  /** Set when someone listens: `schedule` reports each request as a sample. */
  emit?: (event: ProbeEvent) => void;
  /** Set when someone wants every request (`dbprobe run --raw`); called after the request ended. */
  onRequest?: (request: RawRequest) => void;
  /** The client watch, when on: its CPU per load level says whether the client was the limit. */
  client?: Pick<ClientWatcher, 'cpuUs' | 'who' | 'threadSched'>;
}

/** Each request's clock readings as a RawRequest, in µs from the level's start. */
class RawLog {
  private originNs: bigint | undefined;

  constructor(
    private readonly deps: DurationKindDeps,
    private readonly at: { target: string; kind: DurationKind; level: number },
  ) {}

  /** Wraps the level's hooks to learn when its clock started. */
  hooks(inner: LevelHooks): LevelHooks {
    if (!this.deps.onRequest) return inner;
    return {
      ...inner,
      started: (startNs, starts) => {
        this.originNs = startNs;
        inner.started?.(startNs, starts);
      },
    };
  }

  add(times: RequestTimes, error?: RawRequest['error']): void {
    const onRequest = this.deps.onRequest;
    if (!onRequest) return;
    const origin = this.originNs ?? times.intendedNs;
    onRequest({
      ...this.at,
      intendedUs: elapsedUs(origin, times.intendedNs),
      ...(times.startNs !== undefined ? { startUs: elapsedUs(origin, times.startNs) } : {}),
      endUs: elapsedUs(origin, times.endNs),
      ok: error === undefined,
      ...(error !== undefined ? { error } : {}),
    });
  }
}

export async function runDurationKind(
  kind: DurationKind,
  plan: PlanSpec,
  slots: TargetSlot[],
  states: MeasurementState[],
  deps: DurationKindDeps,
): Promise<void> {
  // Figures (percentile scans, histograms encoded for a fan-out's merge) are made after the last
  // level: they take tens of milliseconds, which between two levels would make a place late for the
  // next level's common start.
  const finishLater: (() => void)[] = [];
  for (const [i, slot] of slots.entries()) {
    const state = states[i];
    if (deps.ctx.scope.cancelled) break;
    if (!state || !slot.driver || state.stoppedEarly) continue;
    if (kind === 'load') await runLoad(slot, state, plan, deps, i, finishLater);
    else await runSchedule(slot, state, plan, deps, i, finishLater);
  }
  for (const finish of finishLater) finish();
}

function sinkFor(slot: TargetSlot, state: MeasurementState, deps: DurationKindDeps): OutcomeSink {
  const atUs = (ns: bigint) => elapsedUs(deps.runStartNs, ns);
  // One timing object for every query of the level: recordSuccess reads it and keeps nothing of it.
  const timing = { us: 0 };
  return {
    success: (startNs, us) => {
      timing.us = us;
      state.recordSuccess(false, atUs(startNs), timing);
    },
    failure: (atNs, error) =>
      state.recordFailure(false, atUs(atNs), toFailure(error, deps.redactor, slot.driver?.classify)),
    hopeless: () => state.stoppedEarly !== undefined,
  };
}

/**
 * A fan-out's common start (the level waits for it once its connections are open, and records how
 * late it was) and progress events, when someone listens.
 */
class LevelWatch {
  startLagMs: number | undefined;
  private readonly progress: LevelProgress | undefined;

  constructor(
    private readonly plan: PlanSpec,
    private readonly deps: DurationKindDeps,
    readonly at: { kind: DurationKind; target: string; targetIndex: number; levelIndex: number },
    info: { level: number; levels: number; durationS: number },
  ) {
    this.progress = deps.emit
      ? new LevelProgress(
          { target: at.target, kind: at.kind, levelIndex: at.levelIndex, ...info },
          deps.ctx.clock,
          deps.emit,
        )
      : undefined;
  }

  /** The level's hooks: wait for the common start (fan-out), then report progress from its clock. */
  hooks(): LevelHooks {
    const fanOut = this.plan.fanOut;
    const { kind, targetIndex, levelIndex } = this.at;
    const progress = this.progress;
    return {
      ...(fanOut
        ? {
            ready: async () => {
              const atMs = commonStartMs(this.plan, fanOut, kind, targetIndex, levelIndex);
              this.startLagMs = await waitForWallClock(atMs, this.deps.ctx.scope);
            },
          }
        : {}),
      ...(progress ? { started: (startNs, starts) => progress.began(startNs, starts) } : {}),
    };
  }

  countError(): void {
    if (this.progress) this.progress.errors += 1;
  }

  /** One query (load) or whole request (schedule) answered. */
  countRequest(): void {
    if (this.progress) this.progress.completed += 1;
  }

  end(): void {
    this.progress?.end();
  }
}

/** A closed level's outcome, or an open one's with its start tally. */
type FixedLevelOutcome = LevelOutcome & { starts?: StartTally; startSpanUs?: number; loopLate?: number };

/** A recorder's histogram, for a fan-out's exact merge. */
function encoded(recorder: LatencyRecorder) {
  return encodeHistogram(recorder.histogram, recorder.moments);
}

/** One level as it ran, kept for its figures until the last level is over. */
type RanLevel =
  | { idle: true; level: number }
  | ({
      idle?: undefined;
      level: number;
      outcome: FixedLevelOutcome;
      startLagMs: number | undefined;
    } & ReturnType<LevelBusy['end']>);

async function runLoad(
  slot: TargetSlot,
  state: MeasurementState,
  plan: PlanSpec,
  deps: DurationKindDeps,
  targetIndex: number,
  finishLater: (() => void)[],
): Promise<void> {
  const settings = plan.load ?? LOAD_DEFAULTS;
  const share = placeShare(plan);
  const closed = settings.model === 'closed';
  // Open model: the driver connections this place's arrivals share (at least one).
  const connections = share ? Math.max(1, wholeShare(settings.connections, share)) : settings.connections;
  const ran: RanLevel[] = [];
  for (const [levelIndex, asked] of settings.levels.entries()) {
    if (deps.ctx.scope.cancelled || state.stoppedEarly) break;
    // The level as this place runs it: its share (connections, or its deal of the timetable), or all.
    const level = closed
      ? share
        ? wholeShare(asked, share)
        : asked
      : shareRate(asked, settings.durationS, share);
    const watch = new LevelWatch(
      plan,
      deps,
      { kind: 'load', target: slot.spec.name, targetIndex, levelIndex },
      { level, levels: settings.levels.length, durationS: settings.durationS },
    );
    // A share with no connection (closed) or no arrival (open) sits the level out: it has nothing to
    // measure, and its thread idling through the level is no client limit.
    const idle = closed
      ? level === 0
      : share !== undefined && askedStarts(asked, settings.durationS, share) === 0;
    if (idle) {
      watch.end();
      ran.push({ idle: true, level });
      continue;
    }
    const base = sinkFor(slot, state, deps);
    const raw = new RawLog(deps, { target: slot.spec.name, kind: 'load', level: asked });
    const busy = new LevelBusy(deps.client);
    const sink: OutcomeSink = {
      ...busy.hooks(raw.hooks(watch.hooks())),
      success: (startNs, us, times) => {
        watch.countRequest();
        base.success(startNs, us);
        // The closed model has no schedule: its intended start is its start. Built only for --raw.
        if (deps.onRequest)
          raw.add(times ?? { intendedNs: startNs, startNs, endNs: startNs + BigInt(Math.round(us * 1000)) });
      },
      failure: (atNs, error, times) => {
        watch.countError();
        base.failure(atNs, error);
        if (deps.onRequest)
          raw.add(
            times ?? { intendedNs: atNs, startNs: atNs, endNs: atNs },
            toFailure(error, deps.redactor, slot.driver?.classify).class,
          );
      },
      hopeless: base.hopeless,
    };
    let outcome: FixedLevelOutcome;
    if (closed) outcome = await runClosedLevel(slot, deps.ctx, level, settings.durationS, sink);
    else
      outcome = await runOpenLevel(
        slot,
        deps.ctx,
        {
          rate: asked,
          connections,
          durationS: settings.durationS,
          ...(share ? { share } : {}),
        },
        sink,
      );
    watch.end();
    ran.push({ level, outcome, startLagMs: watch.startLagMs, ...busy.end() });
  }
  finishLater.push(() => {
    const levels = ran.map((entry): LoadLevelFigures => {
      if (entry.idle) return idleLevel(entry.level, plan.fanOut !== undefined);
      const { level, outcome, startLagMs, cpuPercent, loopPercent, who } = entry;
      // An embedded database (libSQL file:) runs in the probing thread: its busy CPU is the database's
      // own work, so it says nothing about a client in the way (as the event-loop watch leaves it out).
      const embedded = slot.info.transport === 'file';
      const { stats, corrected, starts } = outcome;
      const startFigures = starts?.figures(
        level,
        outcome.startSpanUs ?? outcome.durationUs,
        plan.fanOut !== undefined,
      );
      const limited =
        cpuPercent === undefined || !deps.client || embedded
          ? undefined
          : levelClientVerdict(
              cpuPercent,
              who ?? deps.client.who,
              startFigures && { ...startFigures, loopLate: outcome.loopLate ?? 0 },
              loopPercent,
            );
      const figures: LoadLevelFigures = {
        ...levelFigures(level, settings.durationS, outcome, stats.summary()),
        ...(corrected ? { corrected: corrected.summary() } : {}),
        ...(startFigures ? { starts: startFigures } : {}),
        ...(startLagMs !== undefined ? { startLagMs: Math.round(startLagMs) } : {}),
        ...(cpuPercent !== undefined ? { clientCpuPercent: cpuPercent } : {}),
        ...(limited ? { clientLimited: limited } : {}),
        ...(plan.fanOut
          ? { histogram: encoded(stats), ...(corrected ? { correctedHistogram: encoded(corrected) } : {}) }
          : {}),
      };
      const tripped = judgeLevel(figures, settings);
      return tripped === undefined ? figures : { ...figures, tripped };
    });
    const knee = findKnee(levels);
    const service = openService(ran.flatMap((r) => (r.idle ? [] : [r.outcome])));
    const ceiling = clientCeiling(levels);
    state.figures.load = {
      model: settings.model,
      ...(closed ? {} : { connections }),
      durationS: settings.durationS,
      maxErrorRate: settings.maxErrorRate,
      ...(settings.maxLatencyMs !== undefined ? { maxLatencyMs: settings.maxLatencyMs } : {}),
      latencyStat: settings.latencyStat,
      levels,
      ...(knee ? { knee } : {}),
      ...(service ? { service } : {}),
      ...(ceiling !== undefined ? { clientCeiling: ceiling } : {}),
    };
  });
}

/** A share that sat the level out: nothing measured, nothing judged (see LoadLevelFigures.idle). */
function idleLevel(level: number, withHistogram: boolean): LoadLevelFigures {
  const none = new LatencyRecorder();
  return {
    level,
    durationUs: 0,
    idle: true,
    throughput: 0,
    stats: none.summary(),
    ...(withHistogram ? { histogram: encoded(none) } : {}),
  };
}

/** Open model: the service time of every level's queries, merged exactly from the levels' histograms. */
function openService(outcomes: FixedLevelOutcome[]): LatencyStats | undefined {
  if (outcomes.length === 0 || outcomes.some((o) => o.corrected === undefined)) return undefined;
  return mergeHistograms(outcomes.map((o) => ({ histogram: encoded(o.stats), errors: o.stats.errors })))
    .stats;
}

/**
 * Throughput over the level's asked duration, or longer when its last answers came later; over the
 * time it ran when it was cut short.
 */
function levelFigures(
  level: number,
  durationS: number,
  outcome: Pick<LevelOutcome, 'durationUs' | 'cut'>,
  stats: LatencyStats,
): LoadLevelFigures {
  const { durationUs, cut } = outcome;
  const spanUs = cut ? durationUs : Math.max(durationUs, durationS * 1e6);
  return {
    level,
    durationUs,
    ...(cut ? { cut } : {}),
    throughput: spanUs > 0 ? round3((stats.count * 1e6) / spanUs) : 0,
    stats,
  };
}

async function runSchedule(
  slot: TargetSlot,
  state: MeasurementState,
  plan: PlanSpec,
  deps: DurationKindDeps,
  targetIndex: number,
  finishLater: (() => void)[],
): Promise<void> {
  const settings = plan.schedule ?? SCHEDULE_DEFAULTS;
  const share = placeShare(plan);
  const rate = shareRate(settings.rate, settings.durationS, share);
  const sink = sinkFor(slot, state, deps);
  const atUs = (ns: bigint) => elapsedUs(deps.runStartNs, ns);
  const emit = deps.emit;
  const watch = new LevelWatch(
    plan,
    deps,
    { kind: 'schedule', target: slot.spec.name, targetIndex, levelIndex: 0 },
    { level: rate, levels: 1, durationS: settings.durationS },
  );
  const raw = new RawLog(deps, { target: slot.spec.name, kind: 'schedule', level: settings.rate });
  const outcome = await runRequestSchedule(
    slot,
    deps.ctx,
    settings,
    {
      ...raw.hooks(watch.hooks()),
      request(index, times, totalUs) {
        watch.countRequest();
        // From the intended start: a request the client started late waited for it all the same.
        sink.success(times.intendedNs, totalUs);
        raw.add(times);
        emit?.({
          type: 'sample',
          target: slot.spec.name,
          kind: 'schedule',
          phase: 'measure',
          index,
          atUs: atUs(times.intendedNs),
          us: totalUs,
        });
      },
      failure(index, atNs, error, times) {
        watch.countError();
        const failure = toFailure(error, deps.redactor, slot.driver?.classify);
        state.recordFailure(false, atUs(atNs), failure);
        raw.add({ ...times, endNs: atNs }, failure.class);
        emit?.({
          type: 'sample',
          target: slot.spec.name,
          kind: 'schedule',
          phase: 'measure',
          index,
          atUs: atUs(atNs),
          error: failure.class,
        });
      },
      hopeless: sink.hopeless,
    },
    share,
  );
  watch.end();
  const startLagMs = watch.startLagMs;
  finishLater.push(() => {
    const positions = outcome.positions.map((p) => p.summary());
    const totals = outcome.totals.summary();
    const model = scheduleModel(positions, totals);
    state.figures.schedule = {
      rate,
      queries: settings.queries,
      durationS: settings.durationS,
      durationUs: outcome.durationUs,
      ...(outcome.cut ? { cut: outcome.cut } : {}),
      connection: settings.connection,
      starts: outcome.starts.figures(rate, outcome.startSpanUs, plan.fanOut !== undefined),
      positions,
      totals,
      serviceTotals: outcome.serviceTotals.summary(),
      ...(model ? { model } : {}),
      ...(startLagMs !== undefined ? { startLagMs: Math.round(startLagMs) } : {}),
      ...(plan.fanOut
        ? { positionHistograms: outcome.positions.map(encoded), totalsHistogram: encoded(outcome.totals) }
        : {}),
    };
  });
}
