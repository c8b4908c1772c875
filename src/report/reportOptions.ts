/** What a reader may choose about a report beyond the result itself; every field optional, defaults in the formatter. */
export interface ReportOptions {
  /** RTTs (ms) of the "From where your app runs" projection (default DEFAULT_PROJECTION_RTTS_MS). */
  rttsMs?: readonly number[];
  /** The app's RTT (ms): the verdict adds each question's ranking there (`--app-rtt`). */
  appRttMs?: number;
  /** The app runs here (`appRttMs` 0): the verdict answers with the figures measured here. */
  appHere?: boolean;
  /** Verdicts of gates to state with the run's own (thresholds), before any table. */
  gateLines?: readonly string[];
}
