/**
 * The Markdown's "Where a query's time goes": per target and kind, the p50 split into the
 * database's own time, the distance (turns x floor), the client and the rest (src/shared/querySplit.ts),
 * and with an app RTT the same projected there, where only the distance grows. A part the run could
 * not give is "not given" with a footnote saying why, never a zero.
 */
import type { RunResult } from '../shared/result';
import { sourceText, splitRun, type QuerySplit, type SplitPart } from '../shared/querySplit';
import { ms } from '../shared/units';
import { Footnotes } from './footnotes';
import { inlineText, markdownTable, type Column } from './markdownTable';

export function splitSection(result: RunResult, appRttMs?: number): string[] {
  const names = result.targets.map((t) => t.name);
  const here = splitRun(result.measurements, names);
  if (here.splits.length === 0) return [];
  const notes = new Footnotes('split');
  const there = appRttMs === undefined ? undefined : splitRun(result.measurements, names, appRttMs * 1000);
  const sources = result.measurements.flatMap((m) => {
    const text = sourceText(m);
    return text ? [`- ${inlineText(m.target)} (${m.kind}): ${inlineText(text)}.`] : [];
  });
  return [
    "## Where a query's time goes",
    '',
    "p50 = **database** (the server's own time for the workload, as the server states it) + **distance** (counted turns x the network floor) + **client** (the probing thread's CPU during a connect) + **rest** (the protocol's and driver's own waits, queueing; a part not given is in it). Projected to another RTT, only the distance changes.",
    '',
    ...markdownTable(columns(notes), here.splits),
    '',
    ...(there
      ? [
          `From your app (${appRttMs} ms RTT): the same parts, each turn priced at ${appRttMs} ms.`,
          '',
          ...markdownTable(columns(notes), there.splits),
          '',
        ]
      : []),
    ...(sources.length > 0 ? ['Where each database figure comes from:', '', ...sources, ''] : []),
    ...notes.lines(),
  ];
}

function columns(notes: Footnotes): Column<QuerySplit>[] {
  const part = (name: SplitPart) => (split: QuerySplit) => {
    const us = split.parts[name];
    if (us !== undefined) return ms(us);
    const why = split.why[name];
    return `not given${why ? notes.ref(`${split.target} (${split.kind}): ${name}: ${why}`) : ''}`;
  };
  return [
    { header: 'Target', cell: (s) => s.target },
    { header: 'kind', cell: (s) => s.kind },
    { header: 'p50', align: 'right', cell: (s) => ms(s.p50Us) },
    { header: 'database', align: 'right', cell: part('database') },
    {
      header: 'distance',
      align: 'right',
      cell: (s) => `${ms(s.parts.distance ?? 0)} (${s.turns} x ${ms(s.rttUs ?? s.floor.us)})`,
    },
    { header: 'client', align: 'right', cell: part('client') },
    { header: 'rest', align: 'right', cell: part('rest') },
  ];
}
