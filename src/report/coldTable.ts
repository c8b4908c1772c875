/**
 * The cold-start table of the Markdown report, shaped like the Neon benchmark's: cold start = cold
 * connect + first query minus the hot one taken right after it, with P50, P99, stddev, min, max, n.
 */
import type { Measurement } from '../shared/result';
import { ms } from '../shared/units';
import { tailCell, tooSmallFootnote } from './tailCell';

const MODE_NAMES = { 'neon-api': 'Neon API suspend', 'idle-wait': 'idle wait', command: 'suspend command' };

export function coldTable(measurements: Measurement[]): string[] {
  const rows = measurements.filter((m) => m.kind === 'cold' && m.cold && m.cold.coldStart.count > 0);
  if (rows.length === 0) return [];
  const intro = [
    '## Cold starts',
    '',
    'Each cold sample is a new connection + first query to a database that was made cold first; a hot one on a new connection follows at once. Cold start = cold minus hot, per sample (it can be negative when a slow hot connect hides a fast cold start). Connect columns are p50.',
    '',
  ];
  const table = [
    '| Target | made cold by | n | cold start p50 | p99 | stddev | min | max | cold p50 | hot p50 | cold connect | hot connect |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((m) => {
      const c = m.cold!;
      const d = c.coldStart;
      const coldConnect = m.phases ? ms(m.phases.connect.p50Us) : '-';
      const hotConnect = c.hotConnect.count > 0 ? ms(c.hotConnect.p50Us) : '-';
      return `| ${cell(m.target)} | ${MODE_NAMES[c.mode]} | ${d.count} | ${signedMs(d.p50Us)} | ${tailCell(d.count, 'p99Us', d.p99Us, signedMs)} | ${ms(d.stddevUs)} | ${signedMs(d.minUs)} | ${signedMs(d.maxUs)} | ${ms(m.stats.p50Us)} | ${ms(c.hot.p50Us)} | ${coldConnect} | ${hotConnect} |`;
    }),
  ];
  return [...intro, ...table, ...tooSmallFootnote(table)];
}

function signedMs(us: number): string {
  return us < 0 ? `-${ms(-us)}` : ms(us);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
