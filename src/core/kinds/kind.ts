/**
 * The one contract every probe kind keeps, as k6 keeps one per executor: a kind takes every
 * measurement of its own for every target of a run, into the target's MeasurementState, and the
 * engine only loops over the kinds of the plan. How a kind spends its time (sample by sample in the
 * plan's order, or each target for a duration) is the kind's own business.
 */
import type { ProbeEvent } from '../../shared/events';
import type { RawRequest } from '../../shared/loadResult';
import type { ColdMode, PlanSpec, ProbeKind } from '../../shared/plan';
import type { Redactor } from '../../shared/redact';
import type { ClientWatcher } from '../clientWatch';
import type { ColdPreparer } from '../cold';
import type { SampleContext } from '../connection';
import type { LoopTurn } from '../loopTurn';
import type { MeasurementState } from '../measurementState';
import type { TargetSlot } from '../slot';

/** What a kind is handed for one run: the plan, the connections' context and the run's outlets. */
export interface KindContext {
  plan: PlanSpec;
  /** Clock, timeouts, cancel scope and the tracker of every connection the run opens. */
  ctx: SampleContext;
  /** The run's start: every outcome's `atUs` counts from it. */
  runStartNs: bigint;
  /** The run's cancel and time limit. */
  stopped: AbortSignal;
  /** Yields to the event loop between samples (loopTurn.ts). */
  loop: LoopTurn;
  redactor: Redactor;
  /** Set when someone listens: no event object is made otherwise. */
  emit?: (event: ProbeEvent) => void;
  /** Set when someone wants every request of `load` and `schedule` (`dbprobe run --raw`). */
  onRequest?: (request: RawRequest) => void;
  /** The client watch, when on: its CPU per load level says whether the client was the limit. */
  client?: Pick<ClientWatcher, 'cpuUs' | 'who' | 'threadSched'>;
  /** Makes a target cold for the `cold` kind. */
  prepareCold: ColdPreparer;
  /**
   * Set when the count is the default (plan.iterationsFit): when this kind's samples must be done,
   * on the run's clock (sampleBudget.ts); the count shortens to fit.
   */
  budgetEndNs?: bigint;
}

export interface Kind {
  readonly name: ProbeKind;
  /** What samples of this kind share, stated in the result. */
  readonly reused: string[];
  /**
   * Samples per target this kind reports through `sample` events, for progress bars. A load level
   * issues thousands of queries a second, too many to stream one event each: it reports 0 and tells
   * its progress per level instead.
   */
  eventSamplesPerTarget(plan: PlanSpec): number;
  /**
   * True for the sample-by-sample kinds: each measurement gets the database's own time (per sample
   * from the answers, or per run on a connection of its own around the samples).
   */
  readonly readsServerTime?: boolean;
  /** How a target's cold pairs are recorded; only the `cold` kind has any. */
  coldMode?(slot: TargetSlot): ColdMode | undefined;
  /** Measures every target: `states[i]` is `slots[i]`'s, made by the engine, a stopped one skipped. */
  run(slots: readonly TargetSlot[], states: readonly MeasurementState[], context: KindContext): Promise<void>;
}
