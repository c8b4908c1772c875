/**
 * The `load` and `schedule` kinds inside a run: each target in turn (they are not interleaved: a
 * target's whole duration is one piece), outcomes recorded in the target's MeasurementState so
 * errors, kept samples and the histogram work as for every kind, and the kind's own figures attached.
 */
import type { ProbeEvent } from '../../shared/events';
import { LOAD_DEFAULTS, SCHEDULE_DEFAULTS } from '../../shared/loadPlan';
import type { LoadLevelFigures } from '../../shared/loadResult';
import type { PlanSpec, ProbeKind } from '../../shared/plan';
import type { Redactor } from '../../shared/redact';
import type { LatencyStats } from '../../shared/result';
import { elapsedUs } from '../clock';
import { toFailure } from '../failure';
import type { SampleContext } from '../kinds';
import type { MeasurementState } from '../measurementState';
import type { TargetSlot } from '../slot';
import { runClosedLevel } from './closedModel';
import { findKnee, judgeLevel, scheduleModel } from './figures';
import { runOpenLevel } from './openModel';
import { askedStarts } from './pacer';
import { runRequestSchedule } from './requestSchedule';
import type { OutcomeSink } from './sink';
import { round3 } from './startFigures';

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
    return askedStarts(s.rate, s.durationS);
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
}

export async function runDurationKind(
  kind: DurationKind,
  plan: PlanSpec,
  slots: TargetSlot[],
  states: MeasurementState[],
  deps: DurationKindDeps,
): Promise<void> {
  for (const [i, slot] of slots.entries()) {
    const state = states[i];
    if (deps.ctx.scope.cancelled) break;
    if (!state || !slot.driver || state.stoppedEarly) continue;
    if (kind === 'load') await runLoad(slot, state, plan, deps);
    else await runSchedule(slot, state, plan, deps);
  }
}

function sinkFor(slot: TargetSlot, state: MeasurementState, deps: DurationKindDeps): OutcomeSink {
  const atUs = (ns: bigint) => elapsedUs(deps.runStartNs, ns);
  return {
    success: (startNs, us) => state.recordSuccess(false, atUs(startNs), { us }),
    failure: (atNs, error) =>
      state.recordFailure(false, atUs(atNs), toFailure(error, deps.redactor, slot.driver?.classify)),
    hopeless: () => state.stoppedEarly !== undefined,
  };
}

async function runLoad(
  slot: TargetSlot,
  state: MeasurementState,
  plan: PlanSpec,
  deps: DurationKindDeps,
): Promise<void> {
  const settings = plan.load ?? LOAD_DEFAULTS;
  const sink = sinkFor(slot, state, deps);
  const levels: LoadLevelFigures[] = [];
  for (const level of settings.levels) {
    if (deps.ctx.scope.cancelled || state.stoppedEarly) break;
    let figures: LoadLevelFigures;
    if (settings.model === 'closed') {
      const outcome = await runClosedLevel(slot, deps.ctx, level, settings.durationS, sink);
      figures = levelFigures(level, settings.durationS, outcome.durationUs, outcome.stats.summary());
    } else {
      const outcome = await runOpenLevel(
        slot,
        deps.ctx,
        level,
        settings.connections,
        settings.durationS,
        sink,
      );
      figures = {
        ...levelFigures(level, settings.durationS, outcome.durationUs, outcome.stats.summary()),
        corrected: outcome.corrected.summary(),
        starts: outcome.starts.figures(level, outcome.startSpanUs),
      };
    }
    const tripped = judgeLevel(figures, settings);
    levels.push(tripped === undefined ? figures : { ...figures, tripped });
  }
  const knee = findKnee(levels);
  state.figures.load = {
    model: settings.model,
    ...(settings.model === 'open' ? { connections: settings.connections } : {}),
    durationS: settings.durationS,
    maxErrorRate: settings.maxErrorRate,
    ...(settings.maxLatencyMs !== undefined ? { maxLatencyMs: settings.maxLatencyMs } : {}),
    latencyStat: settings.latencyStat,
    levels,
    ...(knee ? { knee } : {}),
  };
}

/** Throughput over the level's asked duration, or longer when its last answers came later. */
function levelFigures(
  level: number,
  durationS: number,
  durationUs: number,
  stats: LatencyStats,
): LoadLevelFigures {
  const spanUs = Math.max(durationUs, durationS * 1e6);
  return {
    level,
    durationUs,
    throughput: spanUs > 0 ? round3((stats.count * 1e6) / spanUs) : 0,
    stats,
  };
}

async function runSchedule(
  slot: TargetSlot,
  state: MeasurementState,
  plan: PlanSpec,
  deps: DurationKindDeps,
): Promise<void> {
  const settings = plan.schedule ?? SCHEDULE_DEFAULTS;
  const sink = sinkFor(slot, state, deps);
  const atUs = (ns: bigint) => elapsedUs(deps.runStartNs, ns);
  const emit = deps.emit;
  const outcome = await runRequestSchedule(slot, deps.ctx, settings, {
    request(index, startNs, totalUs) {
      sink.success(startNs, totalUs);
      emit?.({
        type: 'sample',
        target: slot.spec.name,
        kind: 'schedule',
        phase: 'measure',
        index,
        atUs: atUs(startNs),
        us: totalUs,
      });
    },
    failure(index, atNs, error) {
      const failure = toFailure(error, deps.redactor, slot.driver?.classify);
      state.recordFailure(false, atUs(atNs), failure);
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
  });
  const positions = outcome.positions.map((p) => p.summary());
  const totals = outcome.totals.summary();
  const model = scheduleModel(positions, totals);
  state.figures.schedule = {
    rate: settings.rate,
    queries: settings.queries,
    durationS: settings.durationS,
    connection: settings.connection,
    starts: outcome.starts.figures(settings.rate, outcome.startSpanUs),
    positions,
    totals,
    ...(model ? { model } : {}),
  };
}
