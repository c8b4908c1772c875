/**
 * Whether one target and kind measured in two runs can be set against each other: the same
 * workload class (workloadClass.ts), and for the duration-based kinds the same levels and model (a
 * sweep of 1 and 2 connections against one of 16 and 32 differs by what was asked, not by a
 * change; a closed model's service times against an open model's corrected ones, likewise).
 */
import type { Measurement, RunResult } from '../result';
import { workloadClassOf } from './workloadClass';

/** Undefined when comparable; else why not, in words a reader acts on. */
export function whyNotComparable(
  base: RunResult,
  head: RunResult,
  mb: Measurement,
  mh: Measurement,
): string | undefined {
  const queryOf = (r: RunResult) => r.targets.find((t) => t.name === mb.target);
  const qb = queryOf(base);
  const qh = queryOf(head);
  if (qb && qh) {
    const wb = workloadClassOf(qb);
    const wh = workloadClassOf(qh);
    if (wb.key !== wh.key) return `the workload differs (BASE ${wb.label}, HEAD ${wh.label})`;
  }
  if (mb.load || mh.load) {
    const model = (m: Measurement) => m.load?.model ?? 'none';
    if (model(mb) !== model(mh))
      return `the load model differs (BASE ${model(mb)}, HEAD ${model(mh)}): a closed model's service times and an open model's corrected latencies answer different questions`;
    const levels = (m: Measurement) => (m.load?.levels ?? []).map((l) => l.level).join(', ');
    const unit = mb.load?.model === 'open' ? '/s' : ' connections';
    if (levels(mb) !== levels(mh))
      return `the load levels differ (BASE ${levels(mb)}${unit}, HEAD ${levels(mh)}${unit}): latency under other levels is another load, not a change`;
  }
  if (mb.schedule || mh.schedule) {
    const shape = (m: Measurement) =>
      m.schedule
        ? `${m.schedule.rate}/s x ${m.schedule.queries} queries, ${m.schedule.connection} connections`
        : 'none';
    if (shape(mb) !== shape(mh)) return `the schedule differs (BASE ${shape(mb)}, HEAD ${shape(mh)})`;
  }
  return undefined;
}
