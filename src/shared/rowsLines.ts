/**
 * "First row and last row": per target and kind whose answer's rows were counted, the time to the
 * first row and to the last (many rows, streamed), or the one figure of a one-row answer, with the
 * bytes the samples received. One computation for the Markdown and the panel. Pure: the panel
 * bundles it.
 */
import { isStreamed, type FirstArrival } from './answerRows';
import type { ProbeKind } from './plan';
import type { Measurement } from './result';
import { ms } from './units';
import { bytesText } from './wireRows';

export interface RowsLine {
  target: string;
  kind: ProbeKind;
  /** Rows the target's first answer held. */
  count: number;
  /** Many rows, streamed: p50s to the first row (batch) and to the last, over `samples` samples. */
  pair?: { first: FirstArrival; firstUs: number; lastUs: number; samples: number };
  /** No pair: the answer's one figure (the kind's p50), and why there is no pair. */
  one?: { us: number; why: string };
  /** p50 of the bytes each sample received (the socket's counter), when counted. */
  bytesReceived?: number;
}

export function rowsLines(measurements: readonly Measurement[], targets: readonly string[]): RowsLine[] {
  const lines: RowsLine[] = [];
  for (const target of targets)
    for (const m of measurements) {
      const rows = m.rows;
      if (m.target !== target || !rows || m.stats.count === 0) continue;
      const bytes = m.wire?.bytesReceived;
      lines.push({
        target,
        kind: m.kind,
        count: rows.count,
        ...(isStreamed(rows)
          ? {
              pair: {
                first: rows.first,
                firstUs: rows.firstRowP50Us,
                lastUs: rows.lastRowP50Us,
                samples: rows.samples,
              },
            }
          : { one: { us: m.stats.p50Us, why: rows.note } }),
        ...(bytes !== undefined ? { bytesReceived: bytes } : {}),
      });
    }
  return lines;
}

/** "first row 1.991 ms, last row 24.161 ms", or a one-row answer's "1.253 ms". */
export function rowsFigureText(line: RowsLine): string {
  if (!line.pair) return `${ms(line.one?.us ?? 0)} ms`;
  const { first, firstUs, lastUs } = line.pair;
  return `first ${first} ${ms(firstUs)} ms, last ${first} ${ms(lastUs)} ms`;
}

/** "10000 rows", "1 row". */
export function rowCountText(count: number): string {
  return `${count} ${count === 1 ? 'row' : 'rows'}`;
}

export function rowsBytesText(line: RowsLine): string {
  return line.bytesReceived === undefined ? '-' : bytesText(line.bytesReceived);
}

/** What the figures are, said once above them. */
export const ROWS_INTRO =
  'p50 from each query’s start to the first row of its answer (a mongodb cursor’s first batch) and to the last, over the same samples, where the driver streams rows and the answer holds many; the last row comes with the answer’s end. A one-row answer has one figure, its p50. Bytes: p50 of what each sample received on its socket.';
