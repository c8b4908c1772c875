/** What a reader may choose about a report beyond the result itself; every field optional, defaults in the formatter. */
export interface ReportOptions {
  /** RTTs (ms) of the "From where your app runs" projection (default DEFAULT_PROJECTION_RTTS_MS). */
  rttsMs?: readonly number[];
  /** The app's RTT (ms): the verdict adds each question's ranking there (`--app-rtt`). */
  appRttMs?: number;
  /** Verdicts of gates to state with the run's own (thresholds), before any table. */
  gateLines?: readonly string[];
}
