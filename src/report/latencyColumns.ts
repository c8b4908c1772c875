/**
 * The statistics columns every latency table of the reports shares (avg, p50, p90, p95, p99, max,
 * stddev, errors), each a dash when nothing ran and p99 withheld when too few samples support it.
 */
import type { LatencyStats } from '../shared/result';
import { ms, percent } from '../shared/units';
import type { Column } from './markdownTable';
import { tailCell } from './tailCell';

/** A right-aligned figure of a row's statistics, a dash when the row has no sample. */
function figure<Row>(
  header: string,
  statsOf: (row: Row) => LatencyStats,
  format: (s: LatencyStats) => string,
): Column<Row> {
  return {
    header,
    align: 'right',
    cell: (row) => {
      const s = statsOf(row);
      return s.count === 0 ? '-' : format(s);
    },
  };
}

/** avg, p50, p90, p95, p99 and max in ms. */
export function latencyColumns<Row>(statsOf: (row: Row) => LatencyStats): Column<Row>[] {
  return [
    figure('avg', statsOf, (s) => ms(s.meanUs)),
    figure('p50', statsOf, (s) => ms(s.p50Us)),
    figure('p90', statsOf, (s) => ms(s.p90Us)),
    figure('p95', statsOf, (s) => ms(s.p95Us)),
    figure('p99', statsOf, (s) => tailCell(s.count, 'p99Us', s.p99Us, ms)),
    figure('max', statsOf, (s) => ms(s.maxUs)),
  ];
}

export function stddevColumn<Row>(statsOf: (row: Row) => LatencyStats): Column<Row> {
  return figure('stddev', statsOf, (s) => ms(s.stddevUs));
}

export function countColumn<Row>(statsOf: (row: Row) => LatencyStats): Column<Row> {
  return { header: 'n', align: 'right', cell: (row) => statsOf(row).count };
}

/** "0", or the count with its rate: "3 (1.5%)". */
export function errorsColumn<Row>(statsOf: (row: Row) => LatencyStats, header = 'errors'): Column<Row> {
  return { header, align: 'right', cell: (row) => errorsText(statsOf(row)) };
}

export function errorsText(s: LatencyStats): string {
  return s.errors === 0 ? '0' : `${s.errors} (${percent(s.errorRate)})`;
}
