/**
 * The answer for a target with nothing to rank it against (the only target of a run, or of its
 * workload): its own figures, stated first like a ranking would be, so a one-target run still opens
 * with how long the app waits. The same p50 and p99 the tables show, in the verdict's short
 * milliseconds; a p99 only where the samples support one (percentileSupport.ts).
 */
import { supports } from '../percentileSupport';
import type { ProjectedKind } from '../projection';
import type { Measurement } from '../result';
import { shortMs } from './shortMs';

export interface AloneFigures {
  target: string;
  /** The workload class's label (workloadClass.ts). */
  workload: string;
  /** E.g. "pg here: new connection p50 2.0 ms, p99 3.1 ms; warm query p50 0.30 ms, p99 0.41 ms." */
  sentence: string;
}

export interface AloneContext {
  measured: (target: string, kind: ProjectedKind) => Measurement | undefined;
  /** Set when the user gave the app's RTT: the projected p50 there (the rankings' own figure) is added. */
  app?: { rttMs: number; p50Us: (kind: ProjectedKind) => number | undefined };
}

const QUESTIONS: { kind: ProjectedKind; words: string }[] = [
  { kind: 'initial', words: 'new connection' },
  { kind: 'subsequent', words: 'warm query' },
];

/** Undefined when the target measured neither question (every sample failed, or a load-only run). */
export function aloneFigures(
  target: string,
  workload: { label: string; named: boolean },
  context: AloneContext,
): AloneFigures | undefined {
  const here = QUESTIONS.flatMap(({ kind, words }) => {
    const m = context.measured(target, kind);
    if (!m) return [];
    const p99 = supports(m.stats.count, 'p99Us') ? `, p99 ${shortMs(m.stats.p99Us)} ms` : '';
    return [`${words} p50 ${shortMs(m.stats.p50Us)} ms${p99}`];
  });
  if (here.length === 0) return undefined;
  const label = workload.named ? ` (${workload.label})` : '';
  let sentence = `${target} here${label}: ${here.join('; ')}`;
  const app = context.app;
  if (app) {
    const there = QUESTIONS.flatMap(({ kind, words }) => {
      const us = context.measured(target, kind) ? app.p50Us(kind) : undefined;
      return us !== undefined ? [`${words} p50 ${shortMs(us)} ms`] : [];
    });
    if (there.length > 0) sentence += `; at ${app.rttMs} ms RTT (projected): ${there.join('; ')}`;
  }
  return { target, workload: workload.label, sentence: `${sentence}.` };
}
