/**
 * The report's statistics table, one row per target of a kind. Its columns are the list below:
 * adding a column to the table is one entry in `STATS_COLUMNS`.
 */
import type { Measurement, TargetInfo } from '../shared/result';
import { countColumn, errorsColumn, latencyColumns, stddevColumn } from './latencyColumns';
import { markdownTable, type Column } from './markdownTable';
import { tooSmallFootnote } from './tailCell';

interface StatsRow {
  readonly measurement: Measurement;
  readonly target: TargetInfo | undefined;
}

const statsOf = (row: StatsRow) => row.measurement.stats;

const STATS_COLUMNS: readonly Column<StatsRow>[] = [
  {
    header: 'Target',
    cell: ({ measurement, target }) =>
      target?.tls?.insecure ? `${measurement.target} (TLS not verified)` : measurement.target,
  },
  { header: 'Driver', cell: ({ target }) => driverCell(target) },
  { header: 'Transport', cell: ({ target }) => target?.transport ?? '' },
  countColumn(statsOf),
  ...latencyColumns(statsOf),
  stddevColumn(statsOf),
  errorsColumn(statsOf),
];

/** The driver, and for a layered twin the layer over it: "pg · drizzle 0.45.4". */
function driverCell(target: TargetInfo | undefined): string {
  const layer = target?.layer;
  if (!target || !layer) return target?.driver ?? '';
  const version = layer.version ? ` ${layer.version}` : '';
  return `${target.driver} · ${layer.name}${version}${layer.query === 'typed' ? ' (typed)' : ''}`;
}

export function statsTable(measurements: readonly Measurement[], targets: readonly TargetInfo[]): string[] {
  const rows = measurements.map((measurement) => ({
    measurement,
    target: targets.find((t) => t.name === measurement.target),
  }));
  const table = markdownTable(STATS_COLUMNS, rows);
  return [...table, ...tooSmallFootnote(table.slice(2))];
}
