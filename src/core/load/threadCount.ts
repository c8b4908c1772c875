/**
 * How many probing threads a load or schedule run spreads over. One Node thread issues and reads
 * every query of its share: on this project's 2-core testbed it tops out near 8,000 q/s on one
 * connection and 30,000 on 64, while pgbench reaches 48,000-87,000 against the same server. A second
 * thread pays for itself (its start-up, a driver instance, connections of its own) once a level asks
 * for more than one thread can give, so the default is one thread per THREAD_CONNECTIONS connections
 * (closed model) or THREAD_RATE arrivals/s (open model, request schedule), never more than the
 * machine's cores (a thread without a core of its own only adds switching) nor MAX_AUTO_THREADS.
 */
import { LOAD_DEFAULTS, SCHEDULE_DEFAULTS } from '../../shared/loadPlan';
import type { PlanSpec } from '../../shared/plan';
import { askedStarts } from './pacer';

/** The default never goes above this, whatever the cores. */
export const MAX_AUTO_THREADS = 8;
/** Closed model: connections one thread is given before a second one helps. */
export const THREAD_CONNECTIONS = 8;
/** Open model and schedule: queries per second one thread is given before a second one helps. */
export const THREAD_RATE = 5_000;

/** The kinds threads spread; any other kind in the plan keeps the run in one thread. */
export function onlyDurationKinds(plan: PlanSpec): boolean {
  return plan.kinds.length > 0 && plan.kinds.every((k) => k === 'load' || k === 'schedule');
}

/** The default: threads the heaviest level needs, within the machine's cores. */
export function autoThreads(plan: PlanSpec, cores: number): number {
  let need = 1;
  if (plan.kinds.includes('load')) {
    const load = plan.load ?? LOAD_DEFAULTS;
    const top = Math.max(0, ...load.levels);
    need = Math.max(need, Math.ceil(top / (load.model === 'closed' ? THREAD_CONNECTIONS : THREAD_RATE)));
  }
  if (plan.kinds.includes('schedule')) {
    const schedule = plan.schedule ?? SCHEDULE_DEFAULTS;
    need = Math.max(need, Math.ceil((schedule.rate * schedule.queries) / THREAD_RATE));
  }
  return Math.max(1, Math.min(need, Math.floor(cores), MAX_AUTO_THREADS));
}

/**
 * The most threads that can each have work in some level: one per connection (closed model), one
 * per driver connection and per arrival (open model: a thread needs a connection of its own and at
 * least one arrival of the deal), one per request (schedule). A thread beyond that would sit every
 * level out.
 */
export function threadsWithWork(plan: PlanSpec): number {
  let most = 0;
  if (plan.kinds.includes('load')) {
    const load = plan.load ?? LOAD_DEFAULTS;
    const top =
      load.model === 'closed'
        ? Math.max(0, ...load.levels)
        : Math.min(load.connections, Math.max(0, ...load.levels.map((l) => askedStarts(l, load.durationS))));
    most = Math.max(most, top);
  }
  if (plan.kinds.includes('schedule')) {
    const schedule = plan.schedule ?? SCHEDULE_DEFAULTS;
    most = Math.max(most, askedStarts(schedule.rate, schedule.durationS));
  }
  return Math.max(1, most);
}

/**
 * The threads this plan runs on here: 1 when it holds other kinds or is already one place's share
 * of a fan-out (threads do not nest), else its own `threads` or the default, never more than have
 * work (threadsWithWork).
 */
export function threadsFor(plan: PlanSpec, cores: number): number {
  if (!onlyDurationKinds(plan) || plan.fanOut) return 1;
  return Math.min(plan.threads ?? autoThreads(plan, cores), threadsWithWork(plan));
}
