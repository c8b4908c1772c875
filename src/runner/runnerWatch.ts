/**
 * The runner's watch mode: probes the targets of a config file on the runner's own disk on a
 * schedule (the loop of src/places/watchLoop.ts, shared with `dbprobe watch`) and keeps fixed-size
 * figures (src/report/watchMetrics.ts) that the handler serves on GET /metrics. Connections resolve
 * as for any plan sent to the runner: `env:VAR` from the runner's environment only.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { DriverRegistry } from '../core/driver';
import { runPlan } from '../core/engine';
import { formatIssues, validatePlan } from '../core/validate/validatePlan';
import { watchIntervalMs, watchLoop } from '../places/watchLoop';
import { WatchMetrics } from '../report/watchMetrics';
import { isRecord } from '../shared/guards';
import { healthChanges, type TargetHealth } from '../shared/judgement/judgeHealth';
import { secretsInEnvironment } from '../shared/envSecrets';
import type { PlanSpec } from '../shared/plan';
import { Redactor } from '../shared/redact';
import { TOOL } from '../shared/version';
import { planLimitBreach } from '../shared/runnerPlanLimits';
import type { RunnerConfig } from './runnerConfig';
import { resolveTargets } from './targets';

/** Quick kinds only: load, schedule and fan-out run for a duration and would load the database on every tick. */
const WATCH_KINDS = ['initial', 'subsequent'];

export interface RunnerWatchSettings {
  configPath: string;
  everyMs: number;
  every: string;
  /** Serve /metrics without the token (the server must then listen on loopback only). */
  openOnLoopback: boolean;
}

/** From DBPROBE_WATCH_CONFIG / DBPROBE_WATCH_EVERY / DBPROBE_WATCH_OPEN_ON_LOOPBACK; undefined: no watch. */
export function watchSettingsFromEnv(
  env: Record<string, string | undefined>,
): RunnerWatchSettings | undefined {
  const configPath = env.DBPROBE_WATCH_CONFIG?.trim();
  if (!configPath) return undefined;
  const every = env.DBPROBE_WATCH_EVERY?.trim() || '30s';
  const everyMs = watchIntervalMs(every);
  if (everyMs === undefined)
    throw new Error(
      `DBPROBE_WATCH_EVERY (--every) must be a duration from 10ms to 24h such as 500ms, 30s or 5m (got "${every}")`,
    );
  return { configPath, every, everyMs, openOnLoopback: env.DBPROBE_WATCH_OPEN_ON_LOOPBACK === '1' };
}

export interface RunnerWatch {
  /** The Prometheus text (every label passed through the runner's redactor) and its Content-Type. */
  render(): Promise<{ body: string; contentType: string }>;
  targets: string[];
  /** Stops the loop (within a moment: the run in progress is cancelled) and waits for it. */
  stop(): Promise<void>;
}

export function startRunnerWatch(
  settings: RunnerWatchSettings,
  config: RunnerConfig,
  registry: DriverRegistry,
  log: (line: string) => void,
): RunnerWatch {
  const plan = watchPlan(settings.configPath, config, registry);
  const resolution = resolveTargets(
    plan,
    undefined,
    config,
    (driver) => registry.info(driver)?.endpointOptions ?? [],
  );
  if (!resolution.ok) throw new Error(`${settings.configPath}: ${resolution.message}`);
  const redactor = new Redactor();
  for (const secret of [config.token, ...secretsInEnvironment(config.env)]) redactor.addSecret(secret);
  for (const secret of resolution.connections.values()) redactor.addSecret(secret);
  const metrics = new WatchMetrics(plan, { redact: (text) => redactor.redact(text) });
  const stopper = new AbortController();
  // A target's health is said when it changes (and on the first run), not on every tick.
  const sayChanges = (before: readonly TargetHealth[], after: readonly TargetHealth[]) => {
    for (const changed of healthChanges(before, after))
      log(`dbprobe runner watch: ${redactor.redact(changed.sentence)}`);
  };
  const loop = watchLoop({
    everyMs: settings.everyMs,
    signal: stopper.signal,
    tick: async (run, signal) => {
      try {
        const result = await runPlan(structuredClone(plan), {
          registry,
          resolveConnection: async (target) => resolution.connections.get(target.name) ?? '',
          tool: TOOL,
          signal,
          redactor,
          onEvent: (event) => metrics.onEvent(event),
          location: { kind: 'runner', label: `runner ${config.region}`, region: config.region },
          // As `dbprobe watch`: no side connection and EXPLAIN on every tick.
          serverTimeRuns: false,
        });
        if (!signal.aborted) sayChanges(metrics.health, metrics.onResult(result));
      } catch (error) {
        const failure = redactor.redact(error instanceof Error ? error.message : String(error));
        log(`dbprobe runner watch: run ${run} failed: ${failure}`);
        if (!signal.aborted) sayChanges(metrics.health, metrics.onRunFailed(failure, new Date()));
      }
    },
  });
  return {
    render: async () => ({ body: await metrics.render(), contentType: metrics.contentType }),
    targets: plan.targets.map((t) => t.name),
    stop: async () => {
      stopper.abort();
      await loop;
    },
  };
}

/** The config file as a plan: validated as any plan, within the runner's limits, quick kinds only. */
function watchPlan(configPath: string, config: RunnerConfig, registry: DriverRegistry): PlanSpec {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (error) {
    throw new Error(
      `watch config ${configPath} could not be read as JSON (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give the path of a dbprobe.json`,
      { cause: error },
    );
  }
  if (!isRecord(parsed))
    throw new Error(`watch config ${configPath} must hold a JSON object with a "targets" list`);
  const { $schema: _schema, ...rest } = parsed;
  const merged = { iterations: 10, warmup: 1, kinds: WATCH_KINDS, ...rest };
  const validated = validatePlan(merged, registry.ids());
  if (!validated.ok)
    throw new Error(
      `watch config ${configPath} has problems: ${formatIssues(validated.issues).replace(/\n/g, '; ')}`,
    );
  const plan = validated.value;
  const other = plan.kinds.filter((kind) => !WATCH_KINDS.includes(kind));
  if (other.length > 0)
    throw new Error(
      `watch config ${configPath}: the runner's watch probes ${WATCH_KINDS.join(', ')}; remove ${other.join(', ')} from "kinds"`,
    );
  const breach = planLimitBreach(plan, config.limits);
  if (breach) throw new Error(`watch config ${configPath}: ${breach.message}`);
  plan.timeouts.runMs = Math.min(plan.timeouts.runMs, config.limits.maxDurationMs);
  for (const target of plan.targets) {
    // A relative CA file names a file beside the config, wherever the runner was started.
    if (target.tls?.caFile !== undefined && !path.isAbsolute(target.tls.caFile))
      target.tls = { ...target.tls, caFile: path.resolve(path.dirname(configPath), target.tls.caFile) };
  }
  return plan;
}
