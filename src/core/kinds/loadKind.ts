/**
 * The `load` kind: each target in turn, level by level, many connections (closed model) or a fixed
 * arrival rate over shared connections (open model) for the level's duration; every level judged,
 * the knee found, and the client's own limit named when it was the one in the way.
 */
import { LOAD_DEFAULTS } from '../../shared/loadPlan';
import type { LoadLevelFigures } from '../../shared/loadResult';
import type { PlanSpec } from '../../shared/plan';
import type { LatencyStats } from '../../shared/result';
import { clientCeiling } from '../clientWatch';
import { toFailure } from '../failure';
import { runClosedLevel, type LevelOutcome } from '../load/closedModel';
import { eachTarget, encoded, LevelWatch, RawLog, sinkFor } from '../load/durationRun';
import { findKnee, judgeLevel } from '../load/figures';
import { LevelBusy } from '../load/levelBusy';
import { levelClientVerdict } from '../load/levelClient';
import { runOpenLevel } from '../load/openModel';
import { askedStarts, shareRate } from '../load/pacer';
import { placeShare, wholeShare } from '../load/shares';
import type { OutcomeSink } from '../load/sink';
import { round3, type StartTally } from '../load/startFigures';
import type { MeasurementState } from '../measurementState';
import { mergeHistograms } from '../merge';
import type { TargetSlot } from '../slot';
import { LatencyRecorder } from '../stats';
import type { Kind, KindContext } from './kind';

export const loadKind: Kind = {
  name: 'load',
  reused: ['connection (per worker in the closed model, shared by arrivals in the open one)'],
  // A level issues thousands of queries a second: its progress goes per level, not per sample.
  eventSamplesPerTarget: () => 0,
  run: (slots, states, context) =>
    eachTarget(slots, states, context, (slot, state, targetIndex, finishLater) =>
      runLoad(slot, state, context.plan, context, targetIndex, finishLater),
    ),
};

/** A closed level's outcome, or an open one's with its start tally. */
type FixedLevelOutcome = LevelOutcome & { starts?: StartTally; startSpanUs?: number; loopLate?: number };

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
  deps: KindContext,
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
