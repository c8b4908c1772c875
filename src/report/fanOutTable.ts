/**
 * Markdown: how a fanned-out load run was split, and what each place measured beside the merged
 * figures. A run over one place's probing threads (`--threads`) is told as threads, not places.
 */
import type { FanOutFigures, FanOutPlaceFigures, FanOutPlaceLevel } from '../shared/loadResult';
import { ms } from '../shared/units';
import { inlineText, markdownTable, type Column } from './markdownTable';

/** One place at one level; `level` absent for a place that reached no level (it failed). */
interface ShareRow {
  readonly place: FanOutPlaceFigures;
  readonly levelName: string;
  readonly level: FanOutPlaceLevel | undefined;
}

/** A right-aligned figure of a place's level, a dash for a place with none. */
function figure(header: string, value: (l: FanOutPlaceLevel) => string | number): Column<ShareRow> {
  return { header, align: 'right', cell: (row) => (row.level ? value(row.level) : '-') };
}

function shareColumns(partHeader: string, what: string): Column<ShareRow>[] {
  return [
    { header: partHeader, cell: (row) => row.place.label },
    { header: 'level', align: 'right', cell: (row) => row.levelName },
    figure(`share (${what})`, (l) => num(l.share)),
    figure('throughput/s', (l) => l.throughput),
    figure('achieved/s', (l) => l.achievedRate ?? '-'),
    figure('answered', (l) => l.count),
    figure('errors', (l) => l.errors),
    figure('late / dropped', (l) => `${l.late ?? '-'} / ${l.dropped ?? '-'}`),
    figure('p50 / p99 ms', (l) => `${ms(l.p50Us)} / ${ms(l.p99Us)}`),
    figure('start lag ms', (l) => l.startLagMs ?? '-'),
    {
      header: 'note',
      cell: (row) => row.place.failure ?? (row.level ? '' : 'no result'),
    },
  ];
}

export function fanOutLines(fanOut: FanOutFigures | undefined, levels: number[], what: string): string[] {
  if (!fanOut) return [];
  const threads = fanOut.parts === 'threads';
  const partsWord = threads ? 'probing threads' : 'places';
  const rows = fanOut.places.flatMap((place): ShareRow[] =>
    place.levels.length === 0
      ? [{ place, levelName: '-', level: undefined }]
      : place.levels.map((level, i) => ({ place, levelName: String(levels[i] ?? '-'), level })),
  );
  return [
    `${threads ? 'Spread' : 'Fanned out'} over ${fanOut.places.length} ${partsWord} from ${fanOut.startAt}: ${inlineText(fanOut.note)}. The figures above merge every ${threads ? 'thread' : 'place'} (histograms merged exactly; throughput, rates and counts added up); each ${threads ? 'thread' : 'place'}'s share:`,
    '',
    ...markdownTable(shareColumns(threads ? 'Thread' : 'Place', what), rows),
    '',
  ];
}

function num(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
