/** One line on a `load` level or `schedule` under way, from its progress events (see events.ts). */
import type { ProbeEvent } from '../shared/events';

type ProgressEvent = Extract<ProbeEvent, { type: 'progress' }>;

/** A log (not a terminal) gets a line this often per level, and one when the level ends. */
export const LOG_PROGRESS_EVERY_MS = 5_000;

export function describeLoadProgress(event: ProgressEvent): string {
  const level =
    event.kind === 'schedule'
      ? `${event.level}/s`
      : `level ${event.levelIndex + 1}/${event.levels} (${event.level})`;
  const seconds = `${(event.elapsedMs / 1000).toFixed(1)}/${(event.durationMs / 1000).toFixed(0)} s`;
  const what = event.kind === 'schedule' ? 'requests' : 'queries';
  const starts = event.late > 0 || event.dropped > 0 ? `, late ${event.late}, dropped ${event.dropped}` : '';
  // A rate over a fraction of a second says little (2 requests in 0.07 s read as 28.2/s of a 2/s
  // schedule): it is shown once a second has passed.
  const rate = event.elapsedMs >= 1_000 ? ` (${event.achievedRate.toFixed(1)}/s)` : '';
  return `${event.target} ${event.kind} ${level}: ${seconds}, ${event.completed} ${what}${rate}, errors ${event.errors}${starts}${event.final ? ', done' : ''}`;
}

/** Whether a log should get this event: the first past each LOG_PROGRESS_EVERY_MS mark, and the last. */
export function worthLogging(event: ProgressEvent, lastLoggedMs: number | undefined): boolean {
  if (event.final) return true;
  const mark = Math.floor(event.elapsedMs / LOG_PROGRESS_EVERY_MS);
  return mark > 0 && (lastLoggedMs === undefined || mark > Math.floor(lastLoggedMs / LOG_PROGRESS_EVERY_MS));
}
