/**
 * Markdown: how a fanned-out load run was split, and what each place measured beside the merged
 * figures. A run over one place's probing threads (`--threads`) is told as threads, not places.
 */
import type { FanOutFigures } from '../shared/loadResult';
import { ms } from '../shared/units';

export function fanOutLines(fanOut: FanOutFigures | undefined, levels: number[], what: string): string[] {
  if (!fanOut) return [];
  const threads = fanOut.parts === 'threads';
  const partsWord = threads ? 'probing threads' : 'places';
  const rows = fanOut.places.flatMap((place) =>
    place.levels.length === 0
      ? [
          `| ${cell(place.label)} | - | - | - | - | - | - | - | - | - | ${cell(place.failure ?? 'no result')} |`,
        ]
      : place.levels.map(
          (l, i) =>
            `| ${cell(place.label)} | ${levels[i] ?? '-'} | ${num(l.share)} | ${l.throughput} | ${l.achievedRate ?? '-'} | ${l.count} | ${l.errors} | ${l.late ?? '-'} / ${l.dropped ?? '-'} | ${ms(l.p50Us)} / ${ms(l.p99Us)} | ${l.startLagMs ?? '-'} | ${cell(place.failure ?? '')} |`,
        ),
  );
  return [
    `${threads ? 'Spread' : 'Fanned out'} over ${fanOut.places.length} ${partsWord} from ${fanOut.startAt}: ${cell(fanOut.note)}. The figures above merge every ${threads ? 'thread' : 'place'} (histograms merged exactly; throughput, rates and counts added up); each ${threads ? 'thread' : 'place'}'s share:`,
    '',
    `| ${threads ? 'Thread' : 'Place'} | level | share (${what}) | throughput/s | achieved/s | answered | errors | late / dropped | p50 / p99 ms | start lag ms | note |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
  ];
}

function num(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
