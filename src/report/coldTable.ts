/**
 * The cold-start table of the Markdown report, shaped like the Neon benchmark's: cold start = cold
 * connect + first query minus the hot one taken right after it, with P50, P99, stddev, min, max, n.
 */
import type { ColdFigures, Measurement } from '../shared/result';
import { ms } from '../shared/units';
import { markdownTable, type Column } from './markdownTable';
import { tailCell, tooSmallFootnote } from './tailCell';

const MODE_NAMES = { 'neon-api': 'Neon API suspend', 'idle-wait': 'idle wait', command: 'suspend command' };

type ColdRow = Measurement & { cold: ColdFigures };

const right = (header: string, cell: (m: ColdRow) => string | number): Column<ColdRow> => ({
  header,
  align: 'right',
  cell,
});

const COLD_COLUMNS: readonly Column<ColdRow>[] = [
  { header: 'Target', cell: (m) => m.target },
  { header: 'made cold by', cell: (m) => MODE_NAMES[m.cold.mode] },
  right('n', (m) => m.cold.coldStart.count),
  right('cold start p50', (m) => signedMs(m.cold.coldStart.p50Us)),
  right('p99', ({ cold: { coldStart: d } }) => tailCell(d.count, 'p99Us', d.p99Us, signedMs)),
  right('stddev', (m) => ms(m.cold.coldStart.stddevUs)),
  right('min', (m) => signedMs(m.cold.coldStart.minUs)),
  right('max', (m) => signedMs(m.cold.coldStart.maxUs)),
  right('cold p50', (m) => ms(m.stats.p50Us)),
  right('hot p50', (m) => ms(m.cold.hot.p50Us)),
  right('cold connect', (m) => (m.phases ? ms(m.phases.connect.p50Us) : '-')),
  right('hot connect', (m) => (m.cold.hotConnect.count > 0 ? ms(m.cold.hotConnect.p50Us) : '-')),
];

export function coldTable(measurements: Measurement[]): string[] {
  const rows = measurements.filter(
    (m): m is ColdRow => m.kind === 'cold' && m.cold !== undefined && m.cold.coldStart.count > 0,
  );
  if (rows.length === 0) return [];
  const intro = [
    '## Cold starts',
    '',
    'Each cold sample is a new connection + first query to a database that was made cold first; a hot one on a new connection follows at once. Cold start = cold minus hot, per sample (it can be negative when a slow hot connect hides a fast cold start). Connect columns are p50.',
    '',
  ];
  const table = markdownTable(COLD_COLUMNS, rows);
  return [...intro, ...table, ...tooSmallFootnote(table)];
}

function signedMs(us: number): string {
  return us < 0 ? `-${ms(-us)}` : ms(us);
}
