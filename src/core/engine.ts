/**
 * The engine: plan -> samples -> events -> result. It knows drivers only through the registry it is
 * given, reads time only through the injected clock, and never lets a secret out unredacted.
 */
import { setMaxListeners } from 'node:events';
import { assertNever } from '../shared/assertNever';
import type { ProbeEvent, ProbeEventListener } from '../shared/events';
import type { PlanSpec } from '../shared/plan';
import { Redactor, redactDeep } from '../shared/redact';
import {
  RESULT_SCHEMA,
  type Measurement,
  type RunEnvironment,
  type RunEnding,
  type RunHeader,
  type RunResult,
  type RunResultBody,
  type RunState,
} from '../shared/result';
import { defaultClock, elapsedUs, type Clock } from './clock';
import { idleClientWatch, watchClient, type ClientScope } from './clientWatch';
import type { DriverRegistry } from './driver';
import { describeEnvironment } from './environment';
import { toFailure } from './failure';
import { CancelScope } from './deadline';
import { coldKind, coldSettings, idleWaitOnlyPreparer, type ColdPreparer } from './cold';
import {
  eventSamplesPerTarget,
  isDurationKind,
  runDurationKind,
  type DurationKindDeps,
} from './load/loadKind';
import { ConnectionTracker, KIND_STRATEGIES, type SampleContext } from './kinds';
import { runSampleKind } from './sampleLoop';
import { resolvingTwinsAsRaw, withLayerTwins } from './layerTwins';
import { LoopTurn } from './loopTurn';
import { MeasurementState } from './measurementState';
import { applyPresets, setUpScratch, tearDownScratch } from './scratch';
import { prepareSlot, type ConnectionResolver, type TargetSlot } from './slot';
import type { CaFileReader } from './tlsTrust';

export interface EngineDeps {
  registry: DriverRegistry;
  resolveConnection: ConnectionResolver;
  tool: { name: string; version: string };
  clock?: Clock;
  signal?: AbortSignal;
  onEvent?: ProbeEventListener;
  redactor?: Redactor;
  location?: RunEnvironment['location'];
  /** Wall-clock start time for the result; latencies never use it. */
  now?: () => Date;
  /** Watch event-loop delay and CPU of this process (on by default). */
  watchClient?: boolean;
  /** Whose CPU the watch counts: the process (default), or the engine's thread (a worker thread). */
  clientScope?: ClientScope;
  /** Makes a target cold for the `cold` kind; without it only idle-wait is available. */
  cold?: ColdPreparer;
  /** Reads a target's `tls.caFile`; local files by default (a remote runner refuses). */
  readCaFile?: CaFileReader;
  /** Every request of the `load` and `schedule` kinds, as it ends (`dbprobe run --raw`). */
  onRequest?: DurationKindDeps['onRequest'];
}

export async function runPlan(asked: PlanSpec, deps: EngineDeps): Promise<RunResult> {
  const plan = withLayerTwins(asked);
  const resolveConnection = resolvingTwinsAsRaw(plan.targets, deps.resolveConnection);
  const clock = deps.clock ?? defaultClock();
  const redactor = deps.redactor ?? new Redactor();
  const emit = safeEmitter(deps.onEvent);
  const listening = deps.onEvent !== undefined;
  const stop = stopControl(deps.signal, plan.timeouts.runMs, plan.targets.length);
  // Web Crypto's randomUUID: the same in Node, Workers and the other runner platforms.
  const runId = globalThis.crypto.randomUUID();
  const startedAt = (deps.now ?? (() => new Date()))().toISOString();
  const startNs = clock.nowNs();
  const cold = coldSettings(plan);
  const watcher = deps.watchClient === false ? undefined : watchClient(deps.clientScope);
  // Sample times count from the run's start; the watch's stalls from its own, a moment later.
  const watchOffsetUs = elapsedUs(startNs, clock.nowNs());
  const connections = new ConnectionTracker(stop.signal);
  const measurements: MeasurementState[] = [];
  /**
   * Each state's measurement, built once when its kind ends (targetDone) and reused in the result:
   * building one encodes its histogram and sorts its wire counts, garbage worth not making twice.
   */
  const finishedOf = new Map<MeasurementState, Measurement>();

  const slots = await Promise.all(
    plan.targets.map((spec) =>
      prepareSlot(
        spec,
        deps.registry,
        resolveConnection,
        (secret) => redactor.addSecret(secret),
        deps.readCaFile,
      ),
    ),
  );
  applyPresets(slots, runId);
  const header: RunHeader = redactDeep(
    {
      id: runId,
      startedAt,
      environment: describeEnvironment(
        deps.tool,
        clock,
        deps.registry,
        slots.map((s) => s.spec.driver),
        deps.location ?? { kind: 'local', label: 'this machine' },
      ),
      plan: {
        kinds: plan.kinds,
        iterations: plan.iterations,
        warmup: plan.warmup,
        order: plan.order,
        timeouts: plan.timeouts,
        sampleCap: plan.sampleCap,
        ...(plan.kinds.includes('cold') ? { cold } : {}),
        ...(plan.kinds.includes('load') && plan.load ? { load: plan.load } : {}),
        ...(plan.kinds.includes('schedule') && plan.schedule ? { schedule: plan.schedule } : {}),
        ...(plan.fanOut ? { fanOut: plan.fanOut } : {}),
      },
      targets: slots.map((s) => s.info),
    },
    redactor,
  );
  emit({
    type: 'start',
    runId,
    targets: plan.targets.map((t) => t.name),
    kinds: plan.kinds,
    totalSamples:
      plan.targets.length *
      plan.kinds.reduce(
        (sum, kind) => sum + (kind === 'cold' ? cold.samples : eventSamplesPerTarget(plan, kind)),
        0,
      ),
    header,
  });
  const ctx: SampleContext = {
    clock,
    scope: new CancelScope(stop.signal),
    connectMs: plan.timeouts.connectMs,
    queryMs: plan.timeouts.queryMs,
    connections,
  };
  const loop = new LoopTurn();

  try {
    await setUpScratch(slots, ctx);
    for (const kind of plan.kinds) {
      if (stop.signal.aborted) break;
      const strategy =
        kind === 'cold'
          ? coldKind({
              prepare: deps.cold ?? idleWaitOnlyPreparer,
              settings: cold,
              signal: stop.signal,
              onWait: (target, wait) =>
                emit({ type: 'wait', target, kind, ...wait, message: redactor.redact(wait.message) }),
              registerSecret: (secret) => redactor.addSecret(secret),
            })
          : KIND_STRATEGIES[kind];
      // A cold sample costs a suspend: its own count, and no warm-up (a warm-up would be hot).
      const [warmupCount, iterationCount] =
        kind === 'cold' ? [0, cold.samples] : [plan.warmup, plan.iterations];
      const states = slots.map(
        (slot) =>
          new MeasurementState(
            slot.spec.name,
            kind,
            plan.sampleCap,
            plan.maxConsecutiveErrors,
            strategy.reused,
            kind === 'cold' ? slot.spec.cold?.mode : undefined,
          ),
      );
      measurements.push(...states);
      slots.forEach((slot, i) => reportSetupError(slot, states[i], emit, redactor));

      // `load` and `schedule` run each target for a duration, not sample by sample.
      if (isDurationKind(kind)) {
        await runDurationKind(kind, plan, slots, states, {
          ctx,
          redactor,
          runStartNs: startNs,
          ...(listening ? { emit } : {}),
          ...(deps.onRequest ? { onRequest: deps.onRequest } : {}),
          ...(watcher ? { client: watcher } : {}),
        });
      } else {
        await runSampleKind({
          kind,
          strategy,
          slots,
          states,
          warmup: warmupCount,
          iterations: iterationCount,
          order: plan.order,
          ctx,
          clock,
          runStartNs: startNs,
          stopped: stop.signal,
          loop,
          redactor,
          ...(listening ? { emit } : {}),
        });
      }

      await Promise.all(slots.map((slot) => strategy.finish(slot, ctx).catch(() => undefined)));
      for (const state of states) {
        const measurement = state.toMeasurement();
        finishedOf.set(state, measurement);
        const service = measurement.load?.service ?? measurement.schedule?.serviceTotals;
        emit({
          type: 'targetDone',
          target: state.target,
          kind,
          stats: measurement.stats,
          failed: measurement.failed,
          ...(service ? { service } : {}),
        });
      }
    }
  } finally {
    stop.dispose();
    ctx.scope.dispose();
    await connections.closeAll();
    // Scratch tables and keys go even after a failure or cancel, on connections of their own.
    for (const problem of await tearDownScratch(slots, clock, plan.timeouts.connectMs)) {
      const failure = toFailure(problem.error, redactor);
      emit({
        type: 'error',
        target: problem.target,
        failure: {
          ...failure,
          message: `could not drop the ${problem.scratch}: ${failure.message}`,
          hint: `drop it by hand; every scratch name starts with dbprobe_scratch_. ${failure.hint}`,
        },
      });
    }
  }

  const ending = runEnding(stop.reason(), plan.timeouts.runMs);
  const body: Pick<RunResultBody, 'schema'> & RunHeader = { schema: RESULT_SCHEMA, ...header };
  const finished = measurements.map((m) => finishedOf.get(m) ?? m.toMeasurement());
  const embedded = new Set(slots.filter((s) => s.info.transport === 'file').map((s) => s.spec.name));
  const figures = {
    durationUs: elapsedUs(startNs, clock.nowNs()),
    measurements: finished,
    client:
      watcher?.stop({
        cpuIsWorkload: slots.every((s) => s.info.transport === 'file'),
        judge: { measurements: finished, embedded, offsetUs: -watchOffsetUs },
      }) ?? idleClientWatch,
  };
  // The JSON keeps its key order: `state` after the header, `stopReason` (when stopped) last.
  const result: RunResult = redactDeep(
    ending.state === 'completed'
      ? { ...body, state: ending.state, ...figures }
      : { ...body, state: ending.state, ...figures, stopReason: ending.stopReason },
    redactor,
  );
  emit({ type: 'done', result });
  return result;
}

/** How the run ended: completed, or stopped with the reason a user reads. */
function runEnding(stopped: StopCause | undefined, runMs: number): RunEnding {
  switch (stopped) {
    case undefined:
      return { state: 'completed' };
    case 'cancelled':
      return { state: 'cancelled', stopReason: 'cancelled by the user' };
    case 'timedOut':
      // The limit is dbprobe's own, not the database's: name the setting that cut the run off.
      return {
        state: 'timedOut',
        stopReason: `the run exceeded its ${runMs} ms limit (dbprobe's own timeouts.runMs cut it off; raise it for a longer run)`,
      };
    default:
      return assertNever(stopped);
  }
}

function reportSetupError(
  slot: TargetSlot,
  state: MeasurementState | undefined,
  emit: (event: ProbeEvent) => void,
  redactor: Redactor,
): void {
  if (slot.setupError === undefined || !state) return;
  const failure = toFailure(slot.setupError, redactor);
  state.stop(`could not start: ${failure.class}`, failure);
  emit({ type: 'error', target: slot.spec.name, kind: state.kind, failure });
}

/** What stopped a run before it completed. */
type StopCause = Exclude<RunState, 'completed'>;

/** One signal for user cancellation and the run's own time limit, remembering which fired. */
function stopControl(parent: AbortSignal | undefined, runMs: number, targets: number) {
  const controller = new AbortController();
  // Every target connecting at once listens on this signal, beside the run's own waits: past Node's
  // default of 10 that is expected, not a leak, and its warning would alarm users with many targets.
  // A bound still catches a real leak (a listener per sample). Runtimes without it keep their default.
  try {
    setMaxListeners(16 + 4 * targets, controller.signal);
  } catch {
    // Not every runtime lets an EventTarget's limit be set.
  }
  let reason: StopCause | undefined;
  const abort = (why: StopCause) => {
    reason ??= why;
    controller.abort();
  };
  const onParentAbort = () => abort('cancelled');
  if (parent?.aborted) abort('cancelled');
  parent?.addEventListener('abort', onParentAbort, { once: true });
  const timer = setTimeout(() => abort('timedOut'), runMs);
  return {
    signal: controller.signal,
    reason: () => reason,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}

/** A listener that throws must not break the run. */
function safeEmitter(listener: ProbeEventListener | undefined): (event: ProbeEvent) => void {
  if (!listener) return () => undefined;
  return (event) => {
    try {
      listener(event);
    } catch {
      // The run's record is the result; a broken view cannot be allowed to lose it.
    }
  };
}
