/**
 * A schedule has no keep-up threshold of its own, so one where most requests failed or were never
 * started (every connection busy, the waiting line full) would end with exit 0 and figures of the
 * few that ran, as if the rate had been served. One line and exit 1 say it was not.
 */
import type { RunResult } from '../shared/result';

const count = (n: number) => n.toLocaleString('en-US');

/** One line per target whose schedule mostly failed or was dropped (empty when none did). */
export function scheduleShortfallLines(result: RunResult, where = ''): string[] {
  if (result.state !== 'completed') return [];
  return result.measurements.flatMap((m) => {
    const s = m.schedule;
    if (!s || s.cut || s.starts.asked === 0) return [];
    const { asked, started } = s.starts;
    const failed = m.stats.errors;
    const dropped = asked - started;
    const mostDropped = dropped * 2 > asked;
    const mostFailed = started > 0 && failed * 2 > started;
    if (!mostDropped && !mostFailed) return [];
    const driver = result.targets.find((t) => t.name === m.target)?.driver ?? '?';
    const what = [
      ...(mostFailed ? [`${count(failed)} of ${count(started)} started requests failed`] : []),
      ...(mostDropped ? [`${count(dropped)} of ${count(asked)} asked were never started (dropped)`] : []),
    ].join(', and ');
    return [
      `dbprobe: target "${m.target}" (${driver}) did not keep the schedule${where} [schedule]: ${what}; its figures do not describe ${count(s.rate)} requests/s; ${mostFailed ? 'see the errors above, and ' : ''}lower --rate (schedule.rate) to what the database and this client can serve`,
    ];
  });
}
