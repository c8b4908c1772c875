/**
 * The one-line form of a verdict line, for surfaces that show a line's first few words (a 270 px
 * sidebar row shows about thirty characters, a status-bar item one clause): the winner first, then
 * where it was judged, then the question and its figure. "New connection at 30 ms RTT (projected):
 * planetscale-http fastest (31 ms); ..." reads "planetscale-http fastest at 30 ms RTT (new
 * connection, 31 ms)". The words are the full line's; only their order and what is left out differ.
 */
import { listText, shortMs } from './shortMs';
import type { Figure } from './tieGroups';

export interface ShortRanking {
  /** Tie groups, fastest first (a ranking's groups). */
  groups: readonly (readonly Figure[])[];
  /** The question in the line's words, lower case: "new connection", "request of 5 queries". */
  question: string;
  /** "here" or "at 30 ms RTT". */
  where: string;
  /** The workload class's label, when the run has several classes (the line names it too). */
  workload?: string;
}

/** "planetscale-http fastest at 30 ms RTT (new connection, 31 ms)"; "a and b tied here (warm query)". */
export function rankingShort(ranking: ShortRanking): string {
  const what = `${ranking.question}${ranking.workload ? ` · ${ranking.workload}` : ''}`;
  const first = ranking.groups[0] ?? [];
  const names = listText(first.map((e) => e.target));
  if (ranking.groups.length === 1) return `${names} tied ${ranking.where} (${what})`;
  const figures = first.map((e) => shortMs(e.p50Us)).join(', ');
  return `${names} ${first.length > 1 ? 'tied ' : ''}fastest ${ranking.where} (${what}, ${figures} ms)`;
}

/**
 * A crossover line with no app location: "pg fastest here (new connection, 2.0 ms); edge from 1.4 ms
 * RTT on" (the ask to set where the app runs is left to the full line).
 */
export function crossoverShort(here: ShortRanking, overtake: { winner: string; rttUs: number }): string {
  return `${rankingShort(here)}; ${overtake.winner} from ${shortMs(overtake.rttUs)} ms RTT on`;
}

/** Any other line (a target alone, a load level, a layer, the host): its first clause. */
export function firstClause(line: string): string {
  return line.split('; ')[0]!.replace(/\.$/, '');
}
