/**
 * The default sample count against the run's time bound. With no count asked for (plan.iterationsFit),
 * a kind whose samples are slow gets a share of what is left of `timeouts.runMs` instead of being cut
 * off by it mid-run: after each measured round, the time per round so far says how many rounds still
 * fit, and the kind's count shortens to that (never lengthens: a slow spell is not made up later).
 * A count the user asked for is kept, and the time limit cuts it as before, saying so.
 */
import type { PlanSpec, ProbeKind } from '../shared/plan';

/** What is left of the run for its sample kinds: the time limit less a margin for closing up. */
export const BUDGET_SHARE_OF_RUN = 0.9;

/** The kinds whose count is `iterations` (cold has its own, and the duration kinds a time). */
const BUDGETED_KINDS: readonly ProbeKind[] = ['initial', 'subsequent'];

/**
 * When `kind`, starting at `nowNs`, must be done, for a plan with the default count; undefined
 * otherwise. What is left of the run (to BUDGET_SHARE_OF_RUN of `timeouts.runMs`, less the time the
 * duration kinds still to come need) is split evenly over the budgeted kinds still to run, this one
 * included.
 */
export function kindBudgetEndNs(
  plan: PlanSpec,
  kind: ProbeKind,
  runStartNs: bigint,
  nowNs: bigint,
): bigint | undefined {
  if (!plan.iterationsFit || !BUDGETED_KINDS.includes(kind)) return undefined;
  const rest = plan.kinds.slice(plan.kinds.indexOf(kind));
  // What the duration kinds still to come need, as validatePlan counts it against the same limit.
  const load = rest.includes('load') ? plan.load : undefined;
  const schedule = rest.includes('schedule') ? plan.schedule : undefined;
  const seconds = (load ? load.levels.length * load.durationS : 0) + (schedule?.durationS ?? 0);
  const reservedMs = seconds * plan.targets.length * 1000;
  const kinds = rest.filter((k) => BUDGETED_KINDS.includes(k)).length;
  const endNs =
    runStartNs + BigInt(Math.round((plan.timeouts.runMs * BUDGET_SHARE_OF_RUN - reservedMs) * 1e6));
  const left = endNs > nowNs ? endNs - nowNs : 0n;
  return nowNs + left / BigInt(Math.max(1, kinds));
}

export class SampleBudget {
  private measuredFromNs: bigint | undefined;
  private rounds = 0;

  constructor(
    private readonly endNs: bigint,
    private iterations: number,
  ) {}

  /** The first measured sample is about to start. */
  measuring(nowNs: bigint): void {
    this.measuredFromNs ??= nowNs;
  }

  /**
   * A measured round ended at `nowNs`: the count that still fits, when it is below the current one
   * (at least the rounds taken, and one more when any time is left); undefined when all still fit.
   */
  roundDone(nowNs: bigint): number | undefined {
    this.rounds += 1;
    if (this.measuredFromNs === undefined) return undefined;
    const perRoundNs = Number(nowNs - this.measuredFromNs) / this.rounds;
    if (perRoundNs <= 0) return undefined;
    const leftNs = Math.max(0, Number(this.endNs - nowNs));
    const fits = this.rounds + Math.floor(leftNs / perRoundNs);
    if (fits >= this.iterations) return undefined;
    this.iterations = Math.max(this.rounds, fits);
    return this.iterations;
  }
}
