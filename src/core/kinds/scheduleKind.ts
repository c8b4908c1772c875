/**
 * The `schedule` kind: requests of `queries` queries each, started on a fixed timetable for a
 * duration, each timed from its intended start (coordinated omission corrected), with the service
 * time beside it and the figures per position of a query in its request.
 */
import { SCHEDULE_DEFAULTS } from '../../shared/loadPlan';
import type { PlanSpec } from '../../shared/plan';
import { elapsedUs } from '../clock';
import { toFailure } from '../failure';
import { eachTarget, encoded, LevelWatch, RawLog, sinkFor } from '../load/durationRun';
import { scheduleModel } from '../load/figures';
import { askedStarts, shareRate } from '../load/pacer';
import { runRequestSchedule } from '../load/requestSchedule';
import { placeShare } from '../load/shares';
import type { MeasurementState } from '../measurementState';
import type { TargetSlot } from '../slot';
import type { Kind, KindContext } from './kind';

export const scheduleKind: Kind = {
  name: 'schedule',
  reused: [],
  // Each request is reported as a sample: the timetable's starts of this place's share.
  eventSamplesPerTarget: (plan) => {
    const s = plan.schedule ?? SCHEDULE_DEFAULTS;
    return askedStarts(s.rate, s.durationS, placeShare(plan));
  },
  run: (slots, states, context) =>
    eachTarget(slots, states, context, (slot, state, targetIndex, finishLater) =>
      runSchedule(slot, state, context.plan, context, targetIndex, finishLater),
    ),
};

async function runSchedule(
  slot: TargetSlot,
  state: MeasurementState,
  plan: PlanSpec,
  deps: KindContext,
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
