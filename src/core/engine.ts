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
import { coldSettings, idleWaitOnlyPreparer, type ColdPreparer } from './cold';
import { ConnectionTracker, type SampleContext } from './connection';
import type { Kind, KindContext } from './kinds/kind';
import { KINDS, eventSamplesPerTarget } from './kinds/allKinds';
import { ServerTimeRecorder } from './serverTimeRecorder';
import { RowsRecorder } from './rowsRecorder';
import { startServerTimeRuns } from './serverTimeRuns';
import { resolvingTwinsAsRaw, withLayerTwins } from './layerTwins';
import { LoopTurn } from './loopTurn';
import { MeasurementState } from './measurementState';
import { kindBudgetEndNs } from './sampleBudget';
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
  onRequest?: KindContext['onRequest'];
  /**
   * The per-run readings of the database's own time, each on a connection of its own around a
   * kind's samples (serverTimeRuns.ts): on by default; off for a caller that counts the
   * connections the samples open (a per-sample source needs no connection and stays on).
   */
  serverTimeRuns?: boolean;
}

export async function runPlan(asked: PlanSpec, deps: EngineDeps): Promise<RunResult> {
  const plan = withLayerTwins(asked);
  const resolveConnection = resolvingTwinsAsRaw(plan.targets, deps.resolveConnection);
  const clock = deps.clock ?? defaultClock();
  const redactor = deps.redactor ?? new Redactor();
  const emit = safeEmitter(deps.onEvent);
  const stop = stopControl(deps.signal, plan.timeouts.runMs, plan.targets.length);
  // Web Crypto's randomUUID: the same in Node, Workers and the other runner platforms.
  const runId = globalThis.crypto.randomUUID();
  const startedAt = (deps.now ?? (() => new Date()))().toISOString();
  const startNs = clock.nowNs();
  const watcher = deps.watchClient === false ? undefined : watchClient(deps.clientScope);
  // Sample times count from the run's start; the watch's stalls from its own, a moment later.
  const watchOffsetUs = elapsedUs(startNs, clock.nowNs());
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
  const header = runHeader(plan, deps, { id: runId, startedAt }, clock, slots, redactor);
  emit({
    type: 'start',
    runId,
    targets: plan.targets.map((t) => t.name),
    kinds: plan.kinds,
    totalSamples:
      plan.targets.length * plan.kinds.reduce((sum, kind) => sum + eventSamplesPerTarget(plan, kind), 0),
    header,
  });
  const ctx: SampleContext = {
    clock,
    scope: new CancelScope(stop.signal),
    connectMs: plan.timeouts.connectMs,
    queryMs: plan.timeouts.queryMs,
    connections: new ConnectionTracker(stop.signal),
  };
  const context: KindContext = {
    plan,
    ctx,
    runStartNs: startNs,
    stopped: stop.signal,
    loop: new LoopTurn(),
    redactor,
    prepareCold: deps.cold ?? idleWaitOnlyPreparer,
    ...(deps.onEvent !== undefined ? { emit } : {}),
    ...(deps.onRequest ? { onRequest: deps.onRequest } : {}),
    ...(watcher ? { client: watcher } : {}),
  };

  try {
    await setUpScratch(slots, ctx);
    for (const name of plan.kinds) {
      if (stop.signal.aborted) break;
      const kind = KINDS[name];
      const states = slots.map((slot) =>
        measurementOf(kind, slot, plan, deps.serverTimeRuns !== false && plan.serverTimeRuns !== false),
      );
      measurements.push(...states);
      slots.forEach((slot, i) => reportSetupError(slot, states[i], emit, redactor));
      const finishServerTime =
        kind.readsServerTime && deps.serverTimeRuns !== false && plan.serverTimeRuns !== false
          ? await startServerTimeRuns(slots, states, ctx, redactor)
          : undefined;
      const budgetEndNs = kindBudgetEndNs(plan, name, startNs, clock.nowNs());
      await kind.run(slots, states, budgetEndNs === undefined ? context : { ...context, budgetEndNs });
      await finishServerTime?.();
      for (const state of states) {
        const measurement = state.toMeasurement();
        finishedOf.set(state, measurement);
        emitTargetDone(state, measurement, emit);
      }
    }
  } finally {
    stop.dispose();
    ctx.scope.dispose();
    await ctx.connections.closeAll();
    await dropScratch(slots, clock, plan.timeouts.connectMs, emit, redactor);
  }

  const result = resultOf({
    header,
    ending: runEnding(stop.reason(), plan.timeouts.runMs),
    measurements: measurements.map((m) => finishedOf.get(m) ?? m.toMeasurement()),
    durationUs: elapsedUs(startNs, clock.nowNs()),
    slots,
    watcher,
    watchOffsetUs,
    redactor,
  });
  emit({ type: 'done', result });
  return result;
}

/** The run's result: its header, how it ended, its figures and the client watch's verdict. */
function resultOf(run: {
  header: RunHeader;
  ending: RunEnding;
  measurements: Measurement[];
  durationUs: number;
  slots: readonly TargetSlot[];
  watcher: ReturnType<typeof watchClient> | undefined;
  watchOffsetUs: number;
  redactor: Redactor;
}): RunResult {
  const { ending, measurements, slots } = run;
  const body: Pick<RunResultBody, 'schema'> & RunHeader = { schema: RESULT_SCHEMA, ...run.header };
  const embedded = new Set(slots.filter((s) => s.info.transport === 'file').map((s) => s.spec.name));
  const figures = {
    durationUs: run.durationUs,
    measurements,
    client:
      run.watcher?.stop({
        cpuIsWorkload: slots.every((s) => s.info.transport === 'file'),
        judge: { measurements, embedded, offsetUs: -run.watchOffsetUs },
      }) ?? idleClientWatch,
  };
  // The JSON keeps its key order: `state` after the header, `stopReason` (when stopped) last.
  return redactDeep(
    ending.state === 'completed'
      ? { ...body, state: ending.state, ...figures }
      : { ...body, state: ending.state, ...figures, stopReason: ending.stopReason },
    run.redactor,
  );
}

/** The result's header: the run, its environment, the plan as run (redacted) and its targets. */
function runHeader(
  plan: PlanSpec,
  deps: EngineDeps,
  run: Pick<RunHeader, 'id' | 'startedAt'>,
  clock: Clock,
  slots: readonly TargetSlot[],
  redactor: Redactor,
): RunHeader {
  return redactDeep(
    {
      ...run,
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
        ...(plan.kinds.includes('cold') ? { cold: coldSettings(plan) } : {}),
        ...(plan.kinds.includes('load') && plan.load ? { load: plan.load } : {}),
        ...(plan.kinds.includes('schedule') && plan.schedule ? { schedule: plan.schedule } : {}),
        ...(plan.fanOut ? { fanOut: plan.fanOut } : {}),
      },
      targets: slots.map((s) => s.info),
    },
    redactor,
  );
}

/** A target's measurement for one kind, empty until the kind records into it. */
function measurementOf(
  kind: Kind,
  slot: TargetSlot,
  plan: PlanSpec,
  serverTimeRuns: boolean,
): MeasurementState {
  const coldMode = kind.coldMode?.(slot);
  // A per-run source not read in this run leaves no figure and no note: nothing was asked.
  const serverTime =
    kind.readsServerTime && (serverTimeRuns || slot.driver?.serverTime?.per !== 'run')
      ? new ServerTimeRecorder(slot.driver?.serverTime)
      : undefined;
  return new MeasurementState({
    target: slot.spec.name,
    kind: kind.name,
    sampleCap: plan.sampleCap,
    maxConsecutiveErrors: plan.maxConsecutiveErrors,
    reused: kind.reused,
    ...(coldMode ? { coldMode } : {}),
    ...(serverTime ? { serverTime } : {}),
    ...(slot.driver?.firstArrival ? { rows: new RowsRecorder(slot.driver.firstArrival) } : {}),
  });
}

function emitTargetDone(
  state: MeasurementState,
  measurement: Measurement,
  emit: (event: ProbeEvent) => void,
): void {
  const service = measurement.load?.service ?? measurement.schedule?.serviceTotals;
  emit({
    type: 'targetDone',
    target: state.target,
    kind: state.kind,
    stats: measurement.stats,
    failed: measurement.failed,
    ...(service ? { service } : {}),
    ...(measurement.shortenedTo !== undefined ? { shortenedTo: measurement.shortenedTo } : {}),
  });
}

/** Scratch tables and keys go even after a failure or cancel, on connections of their own. */
async function dropScratch(
  slots: readonly TargetSlot[],
  clock: Clock,
  connectMs: number,
  emit: (event: ProbeEvent) => void,
  redactor: Redactor,
): Promise<void> {
  for (const problem of await tearDownScratch(slots, clock, connectMs)) {
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
