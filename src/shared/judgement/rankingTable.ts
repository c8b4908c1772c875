/**
 * The verdict as a compact table: one row per ranked target, one column per question (new
 * connection, warm query, request of k), each cell the target's place and figure at the app's
 * location with the figure here beside it. The cells of the panel's table and of the Markdown's are
 * these: both render this one computation, so the words and the ties are the judgement's own.
 */
import type { Ranking, RunJudgement } from './judgeRun';
import { DEFAULT_PROJECTED_QUERIES } from '../projection';
import { shortMs } from './shortMs';

export interface RankingCell {
  /** "fastest", "tied fastest", "next", "behind", "tied"; absent where the question ranks no such target. */
  place?: string;
  /** Tied with another target of its group (the table marks it). */
  tied: boolean;
  /** The figure the place is for, with its unit: "≈ 32.1 ms" (at the table's app RTT), or "3.5 ms here". */
  figure?: string;
  /** The figure here when `figure` is at the app's location: "3.5 ms here". */
  here?: string;
}

export interface RankingTableRow {
  target: string;
  cells: RankingCell[];
}

export interface RankingTable {
  /** The workload class the table ranks (targets of one class only). */
  workload: string;
  /** Where the places are decided: at the app's RTT when it is known, else here. */
  at: 'app' | 'here';
  rttMs?: number;
  /** One per question: "New connection", "Warm query", "Request of 5 queries". */
  columns: string[];
  /** Fastest first, by the first question's ranking. */
  rows: RankingTableRow[];
}

const TITLES: Record<Ranking['question'], string> = {
  'new connection': 'New connection',
  'warm query': 'Warm query',
  request: 'Request',
};

/** One table per workload class the judgement ranks. */
export function rankingTables(judgement: RunJudgement, queries = DEFAULT_PROJECTED_QUERIES): RankingTable[] {
  const workloads = [...new Set(judgement.rankings.map((r) => r.workload))];
  return workloads.map((workload) =>
    tableOf(
      judgement.rankings.filter((r) => r.workload === workload),
      queries,
    ),
  );
}

function tableOf(rankings: readonly Ranking[], queries: number): RankingTable {
  const questions = [...new Set(rankings.map((r) => r.question))];
  const app = rankings.some((r) => r.at === 'app');
  const primary = (q: Ranking['question']) =>
    rankings.find((r) => r.question === q && r.at === (app ? 'app' : 'here'));
  const hereOf = (q: Ranking['question']) => rankings.find((r) => r.question === q && r.at === 'here');
  const rttMs = rankings.find((r) => r.at === 'app')?.rttMs;
  const order =
    primary(questions[0]!)
      ?.groups.flat()
      .map((e) => e.target) ?? [];
  const everyone = [...new Set([...order, ...rankings.flatMap((r) => r.groups.flat().map((e) => e.target))])];
  return {
    workload: rankings[0]!.workload,
    at: app ? 'app' : 'here',
    ...(rttMs !== undefined ? { rttMs } : {}),
    columns: questions.map((q) => (q === 'request' ? `Request of ${queries} queries` : TITLES[q])),
    rows: everyone.map((target) => ({
      target,
      cells: questions.map((q) => cellOf(target, primary(q), hereOf(q))),
    })),
  };
}

function cellOf(target: string, ranking: Ranking | undefined, here: Ranking | undefined): RankingCell {
  const groups = ranking?.groups ?? [];
  const g = groups.findIndex((group) => group.some((e) => e.target === target));
  const hereFigure = here?.groups.flat().find((e) => e.target === target);
  if (g < 0 || !ranking)
    return { tied: false, ...(hereFigure ? { here: `${shortMs(hereFigure.p50Us)} ms here` } : {}) };
  const entry = groups[g]!.find((e) => e.target === target)!;
  const tied = groups[g]!.length > 1;
  const word =
    groups.length === 1 ? 'tied' : g === 0 ? 'fastest' : g === groups.length - 1 ? 'behind' : 'next';
  const place = tied && groups.length > 1 ? `tied ${word}` : word;
  if (ranking.at === 'here') return { place, tied, figure: `${shortMs(entry.p50Us)} ms here` };
  return {
    place,
    tied,
    figure: `≈ ${shortMs(entry.p50Us)} ms`,
    ...(hereFigure ? { here: `${shortMs(hereFigure.p50Us)} ms here` } : {}),
  };
}

/** A cell in one line of text (the Markdown's cell): "fastest · ≈ 32.1 ms · 3.5 ms here". */
export function cellText(cell: RankingCell): string {
  return [cell.place, cell.figure, cell.here].filter((p) => p !== undefined).join(' · ') || '–';
}
