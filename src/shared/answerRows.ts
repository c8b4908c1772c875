/**
 * The rows of a target's answer: how many, and, when there are many and the driver streams them,
 * when the first and the last arrived. Defined apart from result.ts so the engine, the reports and
 * the panel share one wording.
 */
import type { AnswerRows } from './schema/resultSchema';

export type { AnswerRows } from './schema/resultSchema';
export { FIRST_ARRIVALS, type FirstArrival } from './schema/resultValues';
export type StreamedRows = Extract<AnswerRows, { firstRowP50Us: number }>;

/** The note of a one-row answer: its latency is its one figure. */
export const ONE_ROW = 'one row: the answer arrives whole, so its latency is the one figure';

/** The note of a many-row answer none of whose measured samples was streamed. */
export const NOT_STREAMED =
  'many rows, but no measured sample timed its first row: the first answer, which counts them, takes the ordinary path, and no streamed one followed';

export function isStreamed(rows: AnswerRows | undefined): rows is StreamedRows {
  return rows !== undefined && typeof rows.firstRowP50Us === 'number';
}
