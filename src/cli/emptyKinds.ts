/**
 * Kinds that were asked for and measured nothing: no sample at all (a schedule of 0 requests, load
 * levels too short for one query) or a load level where no query ran. Such a run shows nothing, so
 * it must not pass: each gets one stderr line saying what happened and what to change, and exit 1.
 * Kinds that failed with errors are reported by probe.ts's failure lines; this covers the silent ones.
 */
import type { Measurement, RunResult } from '../shared/result';

/** One line per empty kind or empty load level of a completed run (empty when all measured something). */
export function emptyKindLines(result: RunResult, where = ''): string[] {
  if (result.state !== 'completed') return [];
  const lines: string[] = [];
  for (const m of result.measurements) {
    const target = result.targets.find((t) => t.name === m.target);
    const who = `target "${m.target}" (${target?.driver ?? '?'})`;
    // A kind that failed (its setup, its cold step) has its own line, with the error, in probe.ts.
    if (m.failed) continue;
    if (m.stats.count === 0 && m.stats.errors === 0) {
      lines.push(`dbprobe: ${who} measured nothing${where} [${m.kind}]: ${whyNothing(m)}`);
      continue;
    }
    const emptyLevels = (m.load?.levels ?? []).filter((l) => l.stats.count === 0 && l.stats.errors === 0);
    if (emptyLevels.length > 0)
      lines.push(
        `dbprobe: ${who} measured nothing${where} [load] at level${emptyLevels.length === 1 ? '' : 's'} ${emptyLevels.map((l) => l.level).join(', ')}: no query ran in ${m.load?.durationS ?? '?'} s; raise --duration (load.durationS) so each level runs queries`,
      );
  }
  return lines;
}

function whyNothing(m: Measurement): string {
  if (m.schedule) {
    const { rate, durationS, starts } = m.schedule;
    return `the schedule started ${starts.started} of ${starts.asked} requests (${rate} requests/s for ${durationS} s); raise --rate or --duration (schedule.rate, schedule.durationS) so that rate x duration is at least 1`;
  }
  if (m.load)
    return `no query ran in any level (${m.load.durationS} s each); raise --duration (load.durationS) so each level runs queries`;
  return `no sample was taken${m.stoppedEarly ? ` (${m.stoppedEarly})` : ''}; check the iterations and the kinds of the run`;
}
