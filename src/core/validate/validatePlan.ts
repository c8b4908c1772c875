/**
 * Plan validation. Every problem names the field and says how to fix it; all problems are reported at
 * once so a user fixes a config in one pass.
 */
import { parseMinEffect, type MinEffect } from '../../shared/judgement/minEffect';
import {
  isOrmLayer,
  isOrmQueryPath,
  layerInfo,
  layeredName,
  layersOver,
  ORM_LAYERS,
  ORM_QUERY_PATHS,
  type OrmLayer,
  type OrmQueryPath,
} from '../../shared/layerCatalog';
import { REFERENCE_PATTERN, isRecord, numberIn, type PlanIssue, type Validated } from './fields';
import { validateColdPlan, validateColdTarget } from './validateCold';
import { validateHttp } from './validateHttp';
import {
  PLAN_DEFAULTS,
  TLS_MAX_VERSIONS,
  type TargetTls,
  PROBE_KINDS,
  TARGET_ORDERS,
  type PlanSpec,
  type ProbeKind,
  type TargetOrder,
  type TargetSpec,
} from '../../shared/plan';
import {
  WORKLOAD_PRESETS,
  WORKLOAD_PRESET_IDS,
  isWorkloadPreset,
  type WorkloadPresetId,
} from '../../shared/workloadPresets';
import { PLAN_LIMITS } from '../../shared/limits';
import { onlyDurationKinds } from '../load/threadCount';
import { durationKindSeconds, validateFanOut, validateLoadPlan, validateSchedulePlan } from './validateLoad';

export type { PlanIssue, Validated };

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9 ._:/@()-]{0,63}$/;

export interface ValidateOptions {
  /**
   * The targets the run will probe (the CLI's --targets), when not all: the checks that depend on
   * what is run (a cold mode for the cold kind, the run's duration) look at these only, so a target
   * left out cannot refuse the run. Every target is still checked on its own.
   */
  selected?: readonly string[];
}

export function validatePlan(
  input: unknown,
  knownDrivers: readonly string[],
  options: ValidateOptions = {},
): Validated<PlanSpec> {
  const issues: PlanIssue[] = [];
  if (!isRecord(input)) return { ok: false, issues: [{ path: '(plan)', message: 'must be an object' }] };

  const targets = validateTargets(input.targets, knownDrivers, issues);
  const kinds = validateKinds(input.kinds, issues);
  const iterations = numberIn(
    input.iterations,
    {
      path: 'iterations',
      min: 1,
      max: PLAN_LIMITS.iterations,
      fallback: PLAN_DEFAULTS.iterations,
      whole: true,
    },
    issues,
  );
  const warmup = numberIn(
    input.warmup,
    { path: 'warmup', min: 0, max: PLAN_LIMITS.warmup, fallback: PLAN_DEFAULTS.warmup, whole: true },
    issues,
  );
  const order = validateOrder(input.order, issues);
  const timeouts = isRecord(input.timeouts) ? input.timeouts : {};
  if (input.timeouts !== undefined && !isRecord(input.timeouts)) {
    issues.push({
      path: 'timeouts',
      message: 'must be an object like {"connectMs": 10000, "queryMs": 10000, "runMs": 900000}',
    });
  }
  const defaults = PLAN_DEFAULTS.timeouts;
  const plan: PlanSpec = {
    targets,
    kinds,
    iterations,
    // No count asked for (or one a fan-out passed on as the default): it may shorten to fit runMs.
    ...(input.iterations === undefined || input.iterationsFit === true ? { iterationsFit: true } : {}),
    warmup,
    order,
    timeouts: {
      connectMs: numberIn(
        timeouts.connectMs,
        {
          path: 'timeouts.connectMs',
          min: 1,
          max: PLAN_LIMITS.timeoutMs,
          fallback: defaults.connectMs,
          whole: true,
        },
        issues,
      ),
      queryMs: numberIn(
        timeouts.queryMs,
        {
          path: 'timeouts.queryMs',
          min: 1,
          max: PLAN_LIMITS.timeoutMs,
          fallback: defaults.queryMs,
          whole: true,
        },
        issues,
      ),
      runMs: numberIn(
        timeouts.runMs,
        { path: 'timeouts.runMs', min: 1, max: PLAN_LIMITS.runMs, fallback: defaults.runMs, whole: true },
        issues,
      ),
    },
    sampleCap: numberIn(
      input.sampleCap,
      {
        path: 'sampleCap',
        min: 0,
        max: PLAN_LIMITS.sampleCap,
        fallback: PLAN_DEFAULTS.sampleCap,
        whole: true,
      },
      issues,
    ),
    maxConsecutiveErrors: numberIn(
      input.maxConsecutiveErrors,
      {
        path: 'maxConsecutiveErrors',
        min: 1,
        max: PLAN_LIMITS.iterations,
        fallback: PLAN_DEFAULTS.maxConsecutiveErrors,
        whole: true,
      },
      issues,
    ),
    ...(input.cold !== undefined ? { cold: validateColdPlan(input.cold, issues) } : {}),
  };
  const runs = (target: TargetSpec) => options.selected?.includes(target.name) ?? true;
  if (kinds.includes('cold')) {
    for (const [index, target] of targets.entries()) {
      if (!target.cold && runs(target))
        issues.push({
          path: `targets[${index}] ("${target.name}").cold`,
          message:
            'the cold kind needs to know how to make this target cold: add "cold": {"mode": "neon-api"}, {"mode": "idle-wait", "idleMs": 300000} or {"mode": "command", "command": ["..."]}',
        });
    }
  }
  if (input.fanOut !== undefined) plan.fanOut = validateFanOut(input.fanOut, issues);
  if (input.load !== undefined || kinds.includes('load'))
    plan.load = validateLoadPlan(input.load, issues, plan.fanOut !== undefined, kinds.includes('load'));
  if (input.schedule !== undefined || kinds.includes('schedule'))
    plan.schedule = validateSchedulePlan(input.schedule, issues, kinds.includes('schedule'));
  if (input.warmConnections !== undefined)
    plan.warmConnections = numberIn(
      input.warmConnections,
      {
        path: 'warmConnections',
        min: 1,
        max: PLAN_LIMITS.warmConnections,
        fallback: 1,
        whole: true,
      },
      issues,
    );
  if (input.serverTimeRuns !== undefined) {
    if (typeof input.serverTimeRuns === 'boolean') plan.serverTimeRuns = input.serverTimeRuns;
    else issues.push({ path: 'serverTimeRuns', message: 'must be true or false' });
  }
  if (input.minEffect !== undefined) {
    // A string in a config file; the object a plan already validated carries (a runner's, a fan-out's).
    const parsed =
      typeof input.minEffect === 'string'
        ? parseMinEffect(input.minEffect)
        : minEffectObject(input.minEffect);
    if (parsed === undefined)
      issues.push({ path: 'minEffect', message: 'must be a share like "5%" or an amount like "0.5ms"' });
    else if (typeof parsed === 'string') issues.push({ path: 'minEffect', message: parsed });
    else plan.minEffect = parsed;
  }
  if (input.threads !== undefined) {
    plan.threads = numberIn(
      input.threads,
      { path: 'threads', min: 1, max: PLAN_LIMITS.threads, fallback: 1, whole: true },
      issues,
    );
    if (plan.threads > 1 && !onlyDurationKinds(plan))
      issues.push({
        path: 'threads',
        message: `spreads only the load and schedule kinds, and this run has ${kinds.filter((k) => k !== 'load' && k !== 'schedule').join(', ')}; drop threads (those kinds run in one thread) or run --kinds load (or schedule) on its own`,
      });
  }
  const seconds = durationKindSeconds(
    kinds.includes('load') ? plan.load : undefined,
    kinds.includes('schedule') ? plan.schedule : undefined,
  );
  const probed = targets.filter(runs).length;
  if (seconds * probed * 1000 > plan.timeouts.runMs)
    issues.push({
      path: 'timeouts.runMs',
      message: `the load and schedule kinds need about ${Math.ceil(seconds * probed)} s for ${probed} target(s), more than the run's ${plan.timeouts.runMs} ms limit; raise timeouts.runMs or shorten durationS / levels`,
    });
  return issues.length === 0 ? { ok: true, value: plan } : { ok: false, issues };
}

export function formatIssues(issues: PlanIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join('\n');
}

function validateTargets(value: unknown, knownDrivers: readonly string[], issues: PlanIssue[]): TargetSpec[] {
  if (!Array.isArray(value) || value.length === 0) {
    issues.push({
      path: 'targets',
      message:
        'add at least one target, e.g. {"name": "local-pg", "driver": "pg", "connection": "env:DATABASE_URL"}',
    });
    return [];
  }
  const seen = new Set<string>();
  const targets: TargetSpec[] = [];
  value.forEach((raw: unknown, index) => {
    const path = `targets[${index}]`;
    if (!isRecord(raw)) {
      issues.push({ path, message: 'must be an object with name, driver and connection' });
      return;
    }
    const name = typeof raw.name === 'string' ? raw.name.trim() : '';
    const label = name ? `${path} ("${name}")` : path;
    if (!NAME_PATTERN.test(name)) {
      issues.push({
        path: `${path}.name`,
        message: 'must be 1-64 letters, digits, spaces or ._:/@()- and start with a letter or digit',
      });
    } else if (seen.has(name)) {
      issues.push({
        path: `${path}.name`,
        message: `"${name}" is used by another target; give each target its own name`,
      });
    }
    seen.add(name);
    const driver = typeof raw.driver === 'string' ? raw.driver : '';
    if (!knownDrivers.includes(driver)) {
      issues.push({
        path: `${label}.driver`,
        message: `${driver ? `unknown driver "${driver}"` : 'is required'}; use one of: ${knownDrivers.join(', ')}`,
      });
    }
    const connection = typeof raw.connection === 'string' ? raw.connection : '';
    if (!REFERENCE_PATTERN.test(connection)) {
      issues.push({
        path: `${label}.connection`,
        message: connection.includes('://')
          ? 'looks like a literal connection string; put it in an environment variable and write "env:VAR_NAME" (or "secret:NAME" in VS Code) so it never sits in a file'
          : 'must be a reference like "env:DATABASE_URL" or "secret:my-db"',
      });
    }
    if (raw.query !== undefined && (typeof raw.query !== 'string' || raw.query.trim() === '')) {
      issues.push({
        path: `${label}.query`,
        message: 'must be a non-empty string, or left out for the driver default',
      });
    }
    if (raw.options !== undefined && !isRecord(raw.options)) {
      issues.push({ path: `${label}.options`, message: 'must be an object of driver options' });
    }
    const cold = raw.cold === undefined ? undefined : validateColdTarget(raw.cold, `${label}.cold`, issues);
    const tls = validateTls(raw.tls, `${label}.tls`, issues);
    const http = validateHttp(raw.http, `${label}.http`, issues);
    const workload = validateWorkload(raw, label, issues);
    const orm = validateOrm(raw.orm, driver, `${label}.orm`, issues);
    if (orm && seen.has(layeredName(name, orm)))
      issues.push({
        path: `${label}.name`,
        message: `"${layeredName(name, orm)}", the name its ${orm} twin gets, is used by another target; rename one of them`,
      });
    if (orm) seen.add(layeredName(name, orm));
    const ormQuery = validateOrmQuery(raw, orm, `${label}.ormQuery`, issues);
    targets.push({
      name,
      driver,
      connection,
      ...(typeof raw.query === 'string' ? { query: raw.query } : {}),
      ...(isRecord(raw.options) ? { options: raw.options } : {}),
      ...(cold ? { cold } : {}),
      ...(tls ? { tls } : {}),
      ...(http ? { http } : {}),
      ...(workload ? { workload } : {}),
      ...(typeof raw.allowWrites === 'boolean' ? { allowWrites: raw.allowWrites } : {}),
      ...(orm ? { orm } : {}),
      ...(ormQuery ? { ormQuery } : {}),
    });
  });
  return targets;
}

/** A target's `orm`: a known layer that runs over the target's driver. */
function validateOrm(
  value: unknown,
  driver: string,
  path: string,
  issues: PlanIssue[],
): OrmLayer | undefined {
  if (value === undefined) return undefined;
  if (!isOrmLayer(value)) {
    issues.push({ path, message: `must be one of: ${ORM_LAYERS.join(', ')}` });
    return undefined;
  }
  if (!layerInfo(value).drivers.includes(driver)) {
    const over = layersOver(driver);
    issues.push({
      path,
      message: `${value} does not run over driver "${driver}" here (it runs over ${layerInfo(value).drivers.join(', ')}); ${over.length > 0 ? `use one of ${over.join(', ')} for ${driver}` : `no layer runs over ${driver}: remove "orm"`}`,
    });
    return undefined;
  }
  return value;
}

/**
 * A target's `ormQuery`: with `orm`, and `typed` only where the layer has a typed query. The typed
 * query is the layer's `SELECT 1`, so the raw twin must run the driver's default `SELECT 1` beside it.
 */
function validateOrmQuery(
  raw: Record<string, unknown>,
  orm: OrmLayer | undefined,
  path: string,
  issues: PlanIssue[],
): OrmQueryPath | undefined {
  const value = raw.ormQuery;
  if (value === undefined) return undefined;
  if (!isOrmQueryPath(value)) {
    issues.push({ path, message: `must be one of: ${ORM_QUERY_PATHS.join(', ')}` });
    return undefined;
  }
  if (raw.orm === undefined) {
    issues.push({ path, message: 'applies to a target with "orm"; add "orm" or remove "ormQuery"' });
    return undefined;
  }
  if (!orm || value === 'raw') return orm ? value : undefined;
  const info = layerInfo(orm);
  if (!info.typedQuery) {
    issues.push({
      path,
      message: `"typed" is not offered for ${orm}: ${info.noTypedQuery ?? 'it has no typed query here'}; use "raw"`,
    });
    return undefined;
  }
  if (raw.query !== undefined || raw.workload !== undefined) {
    issues.push({
      path,
      message: `"typed" runs the layer's own SELECT 1 (${info.typedQuery}) beside the driver's default SELECT 1, so it takes no "query" or "workload"; remove them, or use "raw" to run your workload through the layer`,
    });
    return undefined;
  }
  return value;
}

function validateTls(value: unknown, path: string, issues: PlanIssue[]): TargetTls | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    issues.push({ path, message: 'must be an object like {"caFile": "certs/ca.pem"}' });
    return undefined;
  }
  const unknown = Object.keys(value).filter(
    (key) => key !== 'caFile' && key !== 'insecure' && key !== 'maxVersion',
  );
  if (unknown.length > 0) {
    issues.push({
      path,
      message: `unknown field ${unknown.map((k) => `"${k}"`).join(', ')}; allowed: caFile, insecure, maxVersion`,
    });
  }
  const tls: TargetTls = {};
  if (value.caFile !== undefined) {
    if (typeof value.caFile !== 'string' || value.caFile.trim() === '' || value.caFile.length > 4096) {
      issues.push({ path: `${path}.caFile`, message: 'must be the path of a PEM file of CA certificates' });
    } else tls.caFile = value.caFile;
  }
  if (value.insecure !== undefined) {
    if (typeof value.insecure !== 'boolean') {
      issues.push({
        path: `${path}.insecure`,
        message: 'must be true (accept any server certificate) or false; leave it out to verify',
      });
    } else if (value.insecure) tls.insecure = true;
  }
  if (value.maxVersion !== undefined) {
    const version = TLS_MAX_VERSIONS.find((v) => v === value.maxVersion);
    if (version === undefined) {
      issues.push({
        path: `${path}.maxVersion`,
        message: `must be "1.2" or "1.3" (a string: the highest TLS version the client offers); leave it out for the client's default`,
      });
    } else tls.maxVersion = version;
  }
  if (tls.insecure && tls.caFile !== undefined) {
    issues.push({
      path,
      message:
        'caFile and insecure contradict each other: keep caFile to verify the server, or insecure to skip it',
    });
  }
  return tls.caFile !== undefined || tls.insecure || tls.maxVersion ? tls : undefined;
}

function validateWorkload(
  raw: Record<string, unknown>,
  label: string,
  issues: PlanIssue[],
): WorkloadPresetId | undefined {
  if (raw.allowWrites !== undefined && typeof raw.allowWrites !== 'boolean')
    issues.push({ path: `${label}.allowWrites`, message: 'must be true or false (false when left out)' });
  if (raw.workload === undefined) return undefined;
  if (!isWorkloadPreset(raw.workload)) {
    issues.push({
      path: `${label}.workload`,
      message: `must be one of: ${WORKLOAD_PRESET_IDS.join(', ')}`,
    });
    return undefined;
  }
  if (raw.query !== undefined)
    issues.push({ path: `${label}.workload`, message: 'set either "workload" or "query", not both' });
  if (WORKLOAD_PRESETS[raw.workload].scratch && raw.allowWrites !== true)
    issues.push({
      path: `${label}.workload`,
      message: `"${raw.workload}" creates, writes and drops a scratch table, key or collection (named dbprobe_scratch_...); add "allowWrites": true to this target to let it`,
    });
  return raw.workload;
}

function validateKinds(value: unknown, issues: PlanIssue[]): ProbeKind[] {
  if (value === undefined) return [...PLAN_DEFAULTS.kinds];
  const allowed: readonly string[] = PROBE_KINDS;
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    !value.every((k) => typeof k === 'string' && allowed.includes(k))
  ) {
    const unknown = Array.isArray(value) ? value.filter((k) => !allowed.includes(k as string)) : [];
    const named =
      unknown.length > 0 ? `${unknown.map((k) => JSON.stringify(k)).join(', ')} is not a kind; ` : '';
    issues.push({ path: 'kinds', message: `${named}must be a non-empty list of: ${PROBE_KINDS.join(', ')}` });
    return [];
  }
  return [...new Set(value as ProbeKind[])];
}

function validateOrder(value: unknown, issues: PlanIssue[]): TargetOrder {
  if (value === undefined) return PLAN_DEFAULTS.order;
  const allowed: readonly unknown[] = TARGET_ORDERS;
  if (!allowed.includes(value)) {
    issues.push({ path: 'order', message: `must be one of: ${TARGET_ORDERS.join(', ')}` });
    return PLAN_DEFAULTS.order;
  }
  return value as TargetOrder;
}

/** A plan's own `{ share }` or `{ us }`, as the result records it; undefined when it is neither. */
function minEffectObject(value: unknown): MinEffect | undefined {
  if (!isRecord(value)) return undefined;
  const { share, us } = value;
  if (typeof share === 'number' && Number.isFinite(share) && share >= 0 && share <= 10 && us === undefined)
    return { share };
  if (typeof us === 'number' && Number.isFinite(us) && us >= 1 && share === undefined) return { us };
  return undefined;
}
