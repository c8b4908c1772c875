/**
 * How fast a run's own process went: the engine's median pause between one warm sample's end and
 * the next one's start, over its warm samples in the order taken (µs). The pause is the engine's
 * own work, the same code in every run, so it reads the process's pace at the time: the change
 * gate weighs it for a database on this machine (runChanges.ts), and the verdict bench paces its
 * plain loop by it (scripts/bench/verdict.ts).
 */
import type { RunResult } from '../result';

/** Undefined with fewer than 10 pauses. */
export function pauseBetweenSamplesUs(result: RunResult): number | undefined {
  const spans: { at: number; end: number }[] = [];
  for (const m of result.measurements) {
    if (m.kind !== 'subsequent') continue;
    for (const v of m.samples.values) if (v.us !== undefined) spans.push({ at: v.atUs, end: v.atUs + v.us });
  }
  spans.sort((x, y) => x.at - y.at);
  const pauses: number[] = [];
  for (let i = 1; i < spans.length; i++) pauses.push(Math.max(0, spans[i]!.at - spans[i - 1]!.end));
  if (pauses.length < 10) return undefined;
  pauses.sort((x, y) => x - y);
  return pauses[Math.floor((pauses.length - 1) / 2)];
}
