/**
 * The heartbeat's level over its window: idle (nothing yet), ok, warning (the window's p50 drifted
 * past the user's threshold, or more samples failed than answered) or failing (every sample failed).
 * Decided here, with every other verdict; the status bar only shows it.
 */

export type HeartbeatLevel = 'idle' | 'ok' | 'warning' | 'failing';

export interface HeartbeatWindowFigures {
  /** Successful samples in the window. */
  count: number;
  errors: number;
  /** The window's p50 (µs), when a sample succeeded. */
  p50Us?: number;
}

/** `thresholdUs`: the user's warning threshold (dbprobe.heartbeat.warnAboveMs); absent or 0: none. */
export function heartbeatLevel(
  figures: HeartbeatWindowFigures,
  thresholdUs: number | undefined,
): HeartbeatLevel {
  if (figures.count === 0 || figures.p50Us === undefined) return figures.errors > 0 ? 'failing' : 'idle';
  const drifted = thresholdUs !== undefined && thresholdUs > 0 && figures.p50Us > thresholdUs;
  return drifted || figures.errors > figures.count ? 'warning' : 'ok';
}
