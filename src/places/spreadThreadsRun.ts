/**
 * A load or schedule run spread over several probe threads on this machine: each thread is a
 * probe thread of its own (probeThreadRun.ts: its own event loop, driver instance, connections and client
 * watch) running its share of the connections or arrivals, and the shares merge exactly as a fan-out
 * over places does (core/fanOut: the same split, common start times, histogram merges). The threads'
 * events become one stream: summed progress, the threads' samples and errors, and the merged
 * targets' figures once every thread is done.
 */
import type { FanOutPart } from '../core/fanOut/mergeFanOut';
import { eventSamplesPerTarget } from '../core/kinds/allKinds';
import type { ConnectionResolver } from '../core/slot';
import type { ProbeEvent } from '../shared/events';
import type { RawRequest } from '../shared/loadResult';
import type { PlanSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import type { PackageLookup } from '../shared/packageLookup';
import type { RunEnvironment, RunResult } from '../shared/result';
import { runFanOut, type FanOutPlace } from './fanOut';
import type { PlaceOutcome } from './outcome';
import { runInProbeThread } from './probeThreadRun';

/**
 * From the call to the first level's common start: a thread loads the engine and its driver (a few
 * hundred ms on a busy 2-core host) and opens the level's connections before it.
 */
export const THREADS_LEAD_MS = 1_500;
/** Between levels: the threads drain and open the next level's connections before its start. */
export const THREADS_LEVEL_GAP_MS = 1_000;

export interface SpreadThreadsRunOptions {
  /** The probe thread's entry (dist/probeWorker.js, dist/cliThread.js...). */
  threadEntryFile: string;
  threads: number;
  plan: PlanSpec;
  resolveConnection: ConnectionResolver;
  redactor: Redactor;
  location: RunEnvironment['location'];
  signal: AbortSignal;
  onEvent?: (event: ProbeEvent) => void;
  /**
   * Every request of every thread as it ended (the CLI's `--raw`); each thread's times are from its
   * own start of the level, which every thread starts at a common time.
   */
  onRequest?: (request: RawRequest) => void;
  cancelGraceMs?: number;
  /** Tests' hooks, handed to every thread as workerData. */
  workerData?: unknown;
  /** The project whose installed driver packages every thread loads. */
  packages?: PackageLookup;
}

export async function runSpreadOverThreads(options: SpreadThreadsRunOptions): Promise<PlaceOutcome> {
  const { threads, location } = options;
  const relay = options.onEvent ? new ThreadEvents(threads, options.plan, options.onEvent) : undefined;
  const places = Array.from({ length: threads }, (_, i): FanOutPlace => ({
    label: `thread ${i + 1}`,
    run: async (plan, signal, onEvent): Promise<FanOutPart> => {
      const label = `thread ${i + 1}`;
      const outcome = await runInProbeThread({
        threadEntryFile: options.threadEntryFile,
        plan,
        resolveConnection: options.resolveConnection,
        redactor: options.redactor,
        location: { ...location, label: `${location.label}, ${label} of ${threads}` },
        signal,
        onEvent,
        onRequest: options.onRequest,
        cancelGraceMs: options.cancelGraceMs,
        workerData: options.workerData,
        packages: options.packages,
      });
      if (outcome.ok) return { label, result: outcome.result };
      return {
        label,
        failure: outcome.failure.message,
        result: outcome.partial,
      };
    },
  }));
  const outcome = await runFanOut(options.plan, places, {
    signal: options.signal,
    leadMs: THREADS_LEAD_MS,
    levelGapMs: THREADS_LEVEL_GAP_MS,
    ...(relay ? { onEvent: (index: number, event: ProbeEvent) => relay.add(index, event) } : {}),
  });
  const merged = outcome.merged;
  const failed = outcome.parts.find((p) => p.failure);
  if (!merged)
    return {
      ok: false,
      failure: {
        class: options.signal.aborted ? 'cancelled' : 'internal',
        message: failed?.failure ?? 'no probing thread answered',
      },
    };
  const result = asThreadsResult(merged, options, outcome.shares.note);
  relay?.finish(result);
  if (failed?.failure)
    return {
      ok: false,
      failure: { class: 'cut', message: `${failed.label}: ${failed.failure}` },
      partial: result,
    };
  return { ok: true, result };
}

/** The merged result told as one place's run over N threads, not as a fan-out over places. */
function asThreadsResult(merged: RunResult, options: SpreadThreadsRunOptions, shareNote: string): RunResult {
  const note = `${shareNote
    .replace(/ over \d+ places/, ` over ${options.threads} probing threads`)
    .replace(/each place issues/, 'each thread issues')
    .replace(
      /; every level starts at a common wall-clock time \(places whose clocks disagree start apart by as much\)/,
      '; every thread starts each level at a common time',
    )}`;
  const retold = (m: RunResult['measurements'][number]) => ({
    ...m,
    ...(m.load?.fanOut
      ? { load: { ...m.load, fanOut: { ...m.load.fanOut, note, parts: 'threads' as const } } }
      : {}),
    ...(m.schedule?.fanOut
      ? { schedule: { ...m.schedule, fanOut: { ...m.schedule.fanOut, note, parts: 'threads' as const } } }
      : {}),
  });
  return {
    ...merged,
    plan: { ...merged.plan, threads: options.threads },
    environment: {
      ...merged.environment,
      location: {
        ...options.location,
        label: `${options.location.label} (${options.threads} probing threads)`,
      },
    },
    measurements: merged.measurements.map(retold),
  };
}

/**
 * The threads' events as one run's: the first `start`, progress summed over the threads (each sends
 * its share's), samples and errors as they come, and each target's figures only when merged.
 */
class ThreadEvents {
  private started = false;
  /** Latest progress of each thread, per level: `${target}\0${kind}\0${levelIndex}` -> by thread. */
  private readonly progress = new Map<string, (Extract<ProbeEvent, { type: 'progress' }> | undefined)[]>();

  constructor(
    private readonly threads: number,
    private readonly plan: PlanSpec,
    private readonly emit: (event: ProbeEvent) => void,
  ) {}

  add(thread: number, event: ProbeEvent): void {
    switch (event.type) {
      case 'start':
        if (this.started) return;
        this.started = true;
        // Each thread's start counts its own share of the samples (schedule): the run's are the plan's.
        return this.emit({
          ...event,
          totalSamples:
            this.plan.targets.length *
            this.plan.kinds.reduce((sum, kind) => sum + eventSamplesPerTarget(this.plan, kind), 0),
        });
      case 'progress':
        return this.addProgress(thread, event);
      case 'targetDone':
      case 'done':
        // Shares' figures: the merged ones follow when every thread is done.
        return;
      default:
        return this.emit(event);
    }
  }

  private addProgress(thread: number, event: Extract<ProbeEvent, { type: 'progress' }>): void {
    const key = `${event.target}\u0000${event.kind}\u0000${event.levelIndex}`;
    const all = this.progress.get(key) ?? Array.from({ length: this.threads }, () => undefined);
    all[thread] = event;
    this.progress.set(key, all);
    const seen = all.filter((e): e is NonNullable<typeof e> => e !== undefined);
    const sum = (f: (e: (typeof seen)[number]) => number) => seen.reduce((total, e) => total + f(e), 0);
    const level =
      event.kind === 'load'
        ? (this.plan.load?.levels[event.levelIndex] ?? sum((e) => e.level))
        : (this.plan.schedule?.rate ?? sum((e) => e.level));
    // The level's last event only once every thread has ended it.
    const final = seen.length === this.threads && seen.every((e) => e.final);
    const { final: _final, ...rest } = event;
    this.emit({
      ...rest,
      level,
      elapsedMs: Math.max(...seen.map((e) => e.elapsedMs)),
      completed: sum((e) => e.completed),
      errors: sum((e) => e.errors),
      achievedRate: Math.round(sum((e) => e.achievedRate) * 1000) / 1000,
      late: sum((e) => e.late),
      dropped: sum((e) => e.dropped),
      ...(final ? { final: true as const } : {}),
    });
  }

  /** The merged figures of each target and kind, then the run's end. */
  finish(result: RunResult): void {
    for (const m of result.measurements)
      this.emit({
        type: 'targetDone',
        target: m.target,
        kind: m.kind,
        stats: m.stats,
        failed: m.failed,
        service: m.load?.service,
      });
    this.emit({ type: 'done', result });
  }
}
