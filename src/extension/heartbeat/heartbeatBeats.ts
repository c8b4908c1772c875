/**
 * The heartbeat's beats, without VS Code: each beat is a one-target `subsequent` plan (one warm-up
 * query, then the one measured query, on a connection of its own) that a place runs through the
 * engine, as any probe runs (Place.run, the path of every CLI and editor run), under the one watch loop (src/places/watchLoop.ts). So a beat connects
 * exactly as a probe does (the target's `tls`, `http` and `options`, the plan's timeouts and their
 * deadlines), and stopping the heartbeat is the run's own cancel. The status-bar glue
 * (heartbeat.ts) only builds the plan, starts the loop and shows each beat.
 */
import { failureOf, resultOf, type PlaceOutcome } from '../../places/outcome';
import type { Place, PlaceRun } from '../../places/place';
import { runEverywhere } from '../../places/runEverywhere';
import { watchLoop } from '../../places/watchLoop';
import type { PlanSpec, TargetSpec } from '../../shared/plan';
import { buildPlan, type PlanOutcome, type PlanSettings } from '../config/planSettings';

/** One beat as the status bar shows it: a latency, or why there was none. */
export interface HeartbeatBeat {
  atMs: number;
  /** The measured query's latency in microseconds; undefined when the beat failed. */
  us?: number;
  /** Why the beat measured nothing, from the run's own failures (redacted by the engine). */
  problem?: string;
}

/** The kind a beat shows: one query on a connection that has already answered one. */
export const HEARTBEAT_KIND = 'subsequent';

/**
 * A beat's plan: the target as a probe would run it (the editor's plan settings and dbprobe.json,
 * checked by the engine's own rules, so its timeouts are the validated ones), cut to one warm-up and
 * one measured sample of the warm-connection kind, whose one raw sample is kept for beatOf.
 */
export function heartbeatPlan(
  target: TargetSpec,
  settings: PlanSettings,
  fileConfig: Record<string, unknown> | undefined,
  knownDrivers: readonly string[],
): PlanOutcome {
  const built = buildPlan([target], [HEARTBEAT_KIND], settings, fileConfig, knownDrivers);
  if (!built.ok) return built;
  // One warm connection: the warm-up readies the connection the one measured query then uses.
  return { ok: true, plan: { ...built.plan, iterations: 1, warmup: 1, sampleCap: 1, warmConnections: 1 } };
}

export interface HeartbeatLoopOptions extends Omit<PlaceRun, 'plan' | 'signal' | 'onEvent'> {
  /** Where beats run: any place; the editor's heartbeat uses the engine in its own process. */
  place: Place;
  /** From heartbeatPlan: one target, the `subsequent` kind. */
  plan: PlanSpec;
  everyMs: number;
  /** Stops the beats; a beat under way is cancelled as a probe is, and not reported. */
  signal: AbortSignal;
  onBeat: (beat: HeartbeatBeat) => void;
  /** Stop after this many beats (tests); until the signal otherwise. */
  maxBeats?: number;
  /** Wall-clock time of a beat's end (the window's clock). */
  nowMs?: () => number;
}

/** Beats every `everyMs` until the signal (or `maxBeats`); answers the number of beats run. */
export function runHeartbeat(options: HeartbeatLoopOptions): Promise<number> {
  const { place, plan, onBeat, nowMs = Date.now } = options;
  const target = plan.targets[0]?.name ?? '';
  return watchLoop({
    everyMs: options.everyMs,
    signal: options.signal,
    maxRuns: options.maxBeats,
    tick: async (_beat, signal) => {
      // runEverywhere, as every editor run: a place that throws is a failed beat, not a stopped loop.
      const [outcome] = await runEverywhere([{ place, plan }], {
        resolveConnection: options.resolveConnection,
        redactor: options.redactor,
        signal,
      });
      // A beat cut short by stopping measured nothing worth showing.
      if (outcome && !signal.aborted) onBeat(beatOf(outcome, target, nowMs()));
    },
  });
}

/** The beat a run's outcome amounts to: its measured query's latency, or what went wrong. */
export function beatOf(outcome: PlaceOutcome, target: string, atMs: number): HeartbeatBeat {
  const result = resultOf(outcome);
  const measurement = result?.measurements.find((m) => m.target === target && m.kind === HEARTBEAT_KIND);
  const measured = measurement?.samples.values.find((s) => s.us !== undefined)?.us;
  if (measured !== undefined) return { atMs, us: measured };
  const problem =
    measurement?.firstErrors.at(-1)?.message ??
    measurement?.stoppedEarly ??
    failureOf(outcome)?.message ??
    (result && result.state !== 'completed' ? result.stopReason : undefined) ??
    'the query gave no answer and no error';
  return { atMs, problem };
}
