/**
 * The plan, defined once: the type every caller and the engine use (plan.ts re-exports it), the JSON
 * Schema editors check dbprobe.json with (`npm run schema` writes it from here) and the check of what
 * arrives (core/validate/validatePlan.ts). The rules between fields that a JSON Schema cannot say
 * (unique names, levels that depend on the model, threads only for the duration kinds) are the
 * refinements at the end; each problem names its field and what to do.
 */
import * as z from 'zod/mini';
import { parseMinEffect } from '../judgement/minEffect';
import { isOrmLayer, layerInfo, layeredName } from '../layerCatalog';
import { INPUT_LIMITS, PLAN_LIMITS } from '../limits';
import { coldPlanSchema } from './coldSchema';
import { described, oneOf, trueOrFalse, wholeIn } from './fieldRules';
import {
  fanOutSchema,
  loadLevelsProblem,
  loadPlanSchema,
  schedulePlanSchema,
  tooFewArrivals,
  type LoadPlanSpec,
  type SchedulePlanSpec,
} from './loadSchema';
import { NAME_PATTERN, configTargetSchema, planTargetSchema } from './targetSchema';

import { PLAN_DEFAULT_VALUES, PROBE_KINDS, TARGET_ORDERS, type ProbeKind } from './planValues';

const KINDS_TEXT = `must be a non-empty list of: ${PROBE_KINDS.join(', ')}`;

const kindsSchema = z._default(
  z.pipe(
    z
      .array(
        z.enum(PROBE_KINDS, {
          error: (issue) => `${JSON.stringify(issue.input)} is not a kind; ${KINDS_TEXT}`,
        }),
        { error: KINDS_TEXT },
      )
      .check(z.minLength(1, { error: KINDS_TEXT })),
    // A kind named twice runs once.
    z.transform((kinds) => [...new Set(kinds)]),
  ),
  PLAN_DEFAULT_VALUES.kinds,
);

const timeoutsSchema = z.prefault(
  z.strictObject(
    {
      connectMs: z._default(wholeIn(1, PLAN_LIMITS.timeoutMs), PLAN_DEFAULT_VALUES.timeouts.connectMs),
      queryMs: z._default(wholeIn(1, PLAN_LIMITS.timeoutMs), PLAN_DEFAULT_VALUES.timeouts.queryMs),
      runMs: z._default(wholeIn(1, PLAN_LIMITS.runMs), PLAN_DEFAULT_VALUES.timeouts.runMs),
    },
    {
      error: (issue) =>
        issue.code === 'invalid_type'
          ? 'must be an object like {"connectMs": 10000, "queryMs": 10000, "runMs": 900000}'
          : undefined,
    },
  ),
  {},
);

/** The smallest difference named, as a plan and a result hold it: a share of the faster figure or µs. */
export const minEffectValueSchema = z.union([
  z.strictObject({ share: z.number().check(z.gte(0), z.lte(10)) }),
  z.strictObject({ us: z.number().check(z.gte(1), z.lte(3_600_000_000)) }),
]);

const MIN_EFFECT_TEXT = 'must be a share like "5%" or an amount like "0.5ms"';

/**
 * A string in a config file ("5%", "0.5ms"); the object a plan already checked carries (a runner's,
 * a fan-out's). Either way the plan holds the object.
 */
const minEffectSchema = z.pipe(
  z.union(
    [
      z.string().check(z.maxLength(40), z.regex(/^\s*\d+(\.\d+)?\s*(%|us|µs|ms|s)\s*$/)),
      minEffectValueSchema,
    ],
    { error: MIN_EFFECT_TEXT },
  ),
  z.transform((given, ctx) => {
    if (typeof given !== 'string') return given;
    const parsed = parseMinEffect(given);
    if (typeof parsed !== 'string') return parsed;
    ctx.issues.push({ code: 'custom', input: given, message: parsed });
    return z.NEVER;
  }),
);

/** The plan's own settings: everything but its targets. */
export const planSettingsShape = {
  kinds: described(
    kindsSchema,
    'initial: new connection + first query per sample; subsequent: one warm connection, repeated queries; cold: new connection + first query to a database made cold first (needs `cold` on each target), then a hot one; schedule: simulated requests at a fixed rate, each running several queries (see "schedule"); load: concurrency or arrival-rate levels, a duration each (see "load").',
  ),
  iterations: z._default(wholeIn(1, PLAN_LIMITS.iterations), PLAN_DEFAULT_VALUES.iterations),
  /**
   * True when `iterations` is the default, not asked for (validatePlan sets it when the field is
   * absent): a kind whose samples are too slow for `timeouts.runMs` shortens its count to fit rather
   * than be cut off (core/sampleBudget.ts), and the result says so (Measurement.shortenedTo).
   */
  iterationsFit: described(
    z.optional(trueOrFalse()),
    'true: the sample count may shorten to fit timeouts.runMs, as the default does. Set for you when iterations is not given; an iterations you give is kept.',
  ),
  warmup: described(
    z._default(wholeIn(0, PLAN_LIMITS.warmup), PLAN_DEFAULT_VALUES.warmup),
    'Samples taken first and reported apart from the statistics.',
  ),
  order: described(
    z._default(oneOf(TARGET_ORDERS), PLAN_DEFAULT_VALUES.order),
    'interleaved (A B A B ...) spreads network drift across targets.',
  ),
  timeouts: timeoutsSchema,
  /** Raw samples kept per target and kind, for time series and CSV. */
  sampleCap: described(
    z._default(wholeIn(0, PLAN_LIMITS.sampleCap), PLAN_DEFAULT_VALUES.sampleCap),
    'Raw samples kept per target and kind.',
  ),
  /** Consecutive errors with no success after which a target stops being sampled for that kind. */
  maxConsecutiveErrors: described(
    z._default(wholeIn(1, PLAN_LIMITS.iterations), PLAN_DEFAULT_VALUES.maxConsecutiveErrors),
    'A target with this many errors in a row and no success stops being sampled.',
  ),
  /**
   * Warm connections per target that the `subsequent` kind takes in turn (DEFAULT_WARM_CONNECTIONS
   * when absent): enough that a verdict can tell a target from one of its connections.
   */
  warmConnections: described(
    z.optional(wholeIn(1, PLAN_LIMITS.warmConnections)),
    'Warm connections per target that the subsequent kind takes in turn. Two connections to one server answer steadily apart, so the verdict resamples connections, then samples within them: with one connection per target it could not tell a target from its connection.',
  ),
  /**
   * The smallest difference or change the verdict names (a share of the faster figure, or an
   * amount); absent: none, the run's own intervals decide. Kept in the result, so every surface
   * that reads it judges by the same rule.
   */
  minEffect: described(
    z.optional(minEffectSchema),
    "The smallest difference or change the verdict names, as a share of the smaller figure (5%) or an amount (0.5ms, 200us). Default: none; the run's own intervals decide what is established, and this only keeps smaller differences from being named. The same rule on every surface: it is kept in the result.",
  ),
  /**
   * False: no per-run reading of the database's own time (EXPLAIN ANALYZE, counters), which opens a
   * connection of its own around the kind's samples; absent: read where the driver offers one.
   */
  serverTimeRuns: described(
    z.optional(trueOrFalse()),
    "false: no per-run reading of the database's own time (EXPLAIN ANALYZE, counters), which opens a connection of its own around each kind's samples. Default: read where the driver offers one.",
  ),
  /** Settings of the `cold` kind; COLD_DEFAULTS when absent. */
  cold: described(z.optional(coldPlanSchema), 'Settings of the cold kind.'),
  /** Settings of the `load` kind; LOAD_DEFAULTS when absent and the kind runs. */
  load: described(z.optional(loadPlanSchema), 'Settings of the load kind.'),
  /** Settings of the `schedule` kind; SCHEDULE_DEFAULTS when absent and the kind runs. */
  schedule: described(
    z.optional(schedulePlanSchema),
    'Settings of the schedule kind (the serverless-latency blog: 10 requests/s x 3 queries for 60 s).',
  ),
  /**
   * Probing threads the load and schedule kinds spread over (each its own event loop and driver
   * instance); absent: as many as help on the machine that runs the plan (core/load/threadCount.ts).
   */
  threads: described(
    z.optional(wholeIn(1, PLAN_LIMITS.threads)),
    "Probing threads the load and schedule kinds spread their connections (closed model) or arrivals (open model, schedule) over, each with its own event loop and driver instance. Default: one per 8 connections or 5,000 queries/s of the heaviest level, at most the machine's cores and 8. Only for runs whose kinds are all load or schedule.",
  ),
};

/** The plan's settings around its targets. */
function planShape<T extends z.ZodMiniType>(target: T) {
  return {
    /** Where an editor finds this schema; read by editors only. */
    $schema: described(
      z.optional(z.string()),
      'Where an editor finds this schema: ./node_modules/dbprobe/schema/dbprobe.schema.json once the dbprobe package is installed, or https://unpkg.com/dbprobe@VERSION/schema/dbprobe.schema.json.',
    ),
    targets: described(
      z
        .array(target, { error: ADD_A_TARGET })
        .check(z.minLength(1, { error: ADD_A_TARGET }), z.maxLength(INPUT_LIMITS.targets)),
      'A target is a driver + a connection reference + a workload.',
    ),
    ...planSettingsShape,
  };
}

const ADD_A_TARGET =
  'add at least one target, e.g. {"name": "local-pg", "driver": "pg", "connection": "env:DATABASE_URL"}';

type Problem = { path: (string | number)[]; message: string };

/**
 * Target names: each its own, and none taken by another target's layered twin (`name · orm`). Read
 * from what arrived even when other fields are wrong, so a config is fixed in one pass.
 */
function nameProblems(targets: unknown): Problem[] {
  if (!Array.isArray(targets)) return [];
  const seen = new Set<string>();
  const problems: Problem[] = [];
  targets.forEach((raw: unknown, index) => {
    if (typeof raw !== 'object' || raw === null) return;
    const { name: given, driver, orm } = raw as Record<string, unknown>;
    const name = typeof given === 'string' ? given.trim() : '';
    const path = ['targets', index, 'name'];
    // A name the pattern refuses is reported by the field; it still takes its place here.
    if (NAME_PATTERN.test(name) && seen.has(name))
      problems.push({ path, message: `"${name}" is used by another target; give each target its own name` });
    seen.add(name);
    if (!isOrmLayer(orm) || typeof driver !== 'string' || !layerInfo(orm).drivers.includes(driver)) return;
    const twin = layeredName(name, orm);
    if (seen.has(twin))
      problems.push({
        path,
        message: `"${twin}", the name its ${orm} twin gets, is used by another target; rename one of them`,
      });
    seen.add(twin);
  });
  return problems;
}

/** The rules read from what arrived, whatever else is wrong with it. */
const arrivedRules = z.superRefine(
  (plan: Record<string, unknown>, ctx) => {
    if (typeof plan !== 'object' || plan === null) return;
    const problems = nameProblems(plan.targets);
    const levels = loadLevelsProblem(plan.load, plan.fanOut !== undefined);
    if (levels) problems.push({ path: ['load', 'levels'], message: levels });
    for (const { path, message } of problems) ctx.issues.push({ code: 'custom', path, input: plan, message });
  },
  { when: () => true },
);

interface DurationKinds {
  kinds: ProbeKind[];
  threads?: number | undefined;
  load?: LoadPlanSpec | undefined;
  schedule?: SchedulePlanSpec | undefined;
}

/** The rules between valid fields: what the duration kinds can run. */
const durationRules = z.superRefine((plan: DurationKinds, ctx) => {
  const problem = (path: (string | number)[], message: string) =>
    ctx.issues.push({ code: 'custom', path, input: plan, message });
  const { kinds } = plan;
  if ((plan.threads ?? 1) > 1 && !kinds.every((k) => k === 'load' || k === 'schedule'))
    problem(
      ['threads'],
      `spreads only the load and schedule kinds, and this run has ${kinds.filter((k) => k !== 'load' && k !== 'schedule').join(', ')}; drop threads (those kinds run in one thread) or run --kinds load (or schedule) on its own`,
    );
  const load = plan.load;
  if (kinds.includes('load') && load?.model === 'open')
    for (const rate of load.levels) {
      const few = tooFewArrivals(rate, load.durationS, 'load.durationS');
      if (few) problem(['load', 'levels'], few);
    }
  const schedule = plan.schedule;
  if (kinds.includes('schedule') && schedule) {
    const few = tooFewArrivals(schedule.rate, schedule.durationS, 'schedule.durationS');
    if (few) problem(['schedule', 'rate'], few);
  }
});

/** dbprobe.json as a user writes it: what the shipped JSON Schema describes. */
export function configSchema(drivers: readonly string[]) {
  return z.strictObject(planShape(configTargetSchema(drivers))).check(arrivedRules, durationRules);
}

/**
 * A plan as it arrives from any caller (a config file, the editor's settings, a runner request): the
 * config's fields and the fan-out's, with every default filled in and the settings of each kind that
 * runs.
 */
export function planSchema(drivers: readonly string[]) {
  return z.pipe(
    z
      .strictObject({
        ...planShape(planTargetSchema(drivers)),
        /** Set by a fan-out over several places: this place's position and the common start times. */
        fanOut: z.optional(fanOutSchema),
      })
      .check(arrivedRules, durationRules),
    z.transform(({ $schema: _editorsOnly, ...plan }) => ({
      ...plan,
      ...(plan.kinds.includes('load') && !plan.load ? { load: loadPlanSchema.parse({}) } : {}),
      ...(plan.kinds.includes('schedule') && !plan.schedule
        ? { schedule: schedulePlanSchema.parse({}) }
        : {}),
    })),
  );
}

export type PlanSpec = z.output<ReturnType<typeof planSchema>>;
export type Timeouts = PlanSpec['timeouts'];
