/**
 * Plan validation: the plan's one definition (src/shared/schema/planSchema.ts) checks what arrived
 * and fills the defaults; here its problems get the paths users read (`targets[0] ("pg").driver`),
 * and the two checks that depend on which targets run (--targets) are added. Every problem is
 * reported at once so a user fixes a config in one pass.
 */
import { isRecord } from '../../shared/guards';
import type { PlanSpec } from '../../shared/plan';
import { issueText } from '../../shared/schema/fieldRules';
import { planSchema } from '../../shared/schema/planSchema';
import { LAYERED_DEFAULT_ITERATIONS, PLAN_DEFAULT_VALUES } from '../../shared/schema/planValues';

/** One problem with the plan: the field's path (`targets[0] ("pg").cold.mode`) and what to do. */
export interface PlanIssue {
  path: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: PlanIssue[] };

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
  if (!isRecord(input)) return { ok: false, issues: [{ path: '(plan)', message: 'must be an object' }] };
  const parsed = planSchema(knownDrivers).safeParse(input, { error: issueText });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: pathText(issue.path, input),
      message: issue.message,
    }));
    return { ok: false, issues: issues.filter((a, i) => issues.findIndex((b) => sameIssue(a, b)) === i) };
  }
  const issues = runProblems(parsed.data, options.selected);
  // No count asked for: the default, which may shorten to fit timeouts.runMs (core/sampleBudget.ts).
  const plan =
    input.iterations === undefined
      ? { ...parsed.data, iterations: defaultIterations(parsed.data, options.selected), iterationsFit: true }
      : parsed.data;
  return issues.length === 0 ? { ok: true, value: plan } : { ok: false, issues };
}

export function formatIssues(issues: PlanIssue[]): string {
  return issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('\n');
}

/** The default count: more pairs where an ORM layer's small per-query cost is asked. */
function defaultIterations(plan: PlanSpec, selected: readonly string[] | undefined): number {
  const layered = plan.targets.some((t) => t.orm !== undefined && (selected?.includes(t.name) ?? true));
  return layered ? LAYERED_DEFAULT_ITERATIONS : PLAN_DEFAULT_VALUES.iterations;
}

/** The checks that depend on which targets this run probes. */
function runProblems(plan: PlanSpec, selected: readonly string[] | undefined): PlanIssue[] {
  const issues: PlanIssue[] = [];
  const runs = (name: string) => selected?.includes(name) ?? true;
  if (plan.kinds.includes('cold'))
    for (const [index, target] of plan.targets.entries())
      if (!target.cold && runs(target.name))
        issues.push({
          path: `targets[${index}] ("${target.name}").cold`,
          message:
            'the cold kind needs to know how to make this target cold: add "cold": {"mode": "neon-api"}, {"mode": "idle-wait", "idleMs": 300000} or {"mode": "command", "command": ["..."]}',
        });
  const load = plan.kinds.includes('load') ? plan.load : undefined;
  const schedule = plan.kinds.includes('schedule') ? plan.schedule : undefined;
  const seconds = (load ? load.levels.length * load.durationS : 0) + (schedule?.durationS ?? 0);
  const probed = plan.targets.filter((target) => runs(target.name)).length;
  if (seconds * probed * 1000 > plan.timeouts.runMs)
    issues.push({
      path: 'timeouts.runMs',
      message: `the load and schedule kinds need about ${Math.ceil(seconds * probed)} s for ${probed} target(s), more than the run's ${plan.timeouts.runMs} ms limit; raise timeouts.runMs or shorten durationS / levels`,
    });
  return issues;
}

/** Lists whose items' problems are the list's: the message names the list and its choices. */
const WHOLE_LISTS = ['kinds', 'load.levels', 'cold.command'];

/**
 * `targets[2] ("pg").tls.caFile`: a target's problems carry its name where it has one, so a long
 * config's target is found by name; a problem with the name itself does not repeat it.
 */
function pathText(path: readonly PropertyKey[], input: Record<string, unknown>): string {
  let text = '';
  for (const [depth, key] of path.entries()) {
    if (typeof key === 'number') {
      if (WHOLE_LISTS.some((list) => text === list || text.endsWith(`.${list}`))) return text;
      text += `[${key}]`;
      if (depth === 1 && text.startsWith('targets') && path[2] !== 'name')
        text += targetLabel(input.targets, key);
    } else text += text ? `.${String(key)}` : String(key);
  }
  return text;
}

function targetLabel(targets: unknown, index: number): string {
  const target: unknown = Array.isArray(targets) ? targets[index] : undefined;
  const name = isRecord(target) && typeof target.name === 'string' ? target.name.trim() : '';
  return name ? ` ("${name}")` : '';
}

function sameIssue(a: PlanIssue, b: PlanIssue): boolean {
  return a.path === b.path && a.message === b.message;
}
