/**
 * Which ranking of the judgement the cards follow, and their order and places in it. No DOM, so the
 * order is tested in Node.
 */
import type { Ranking, RunJudgement } from '../src/shared/judgement/judgeRun';
import type { RunViewModel } from '../src/shared/viewModel';

/** The ranking the cards follow: the app's of the first question when the app RTT is known. */
export function defaultRanking(judgement: RunJudgement): number {
  const app = judgement.rankings.findIndex((r) => r.at === 'app');
  return app >= 0 ? app : 0;
}

/**
 * The order of the cards for a ranking: its tie groups fastest first, then the targets it does not
 * rank (another workload, nothing measured) in the run's order. With each ranked target, its place.
 */
export function cardOrder(
  model: RunViewModel,
  ranking: Ranking | undefined,
): { target: string; place?: string }[] {
  const ranked = (ranking?.groups ?? []).flatMap((group, g, groups) =>
    group.map((entry) => ({ target: entry.target, place: placeWord(g, groups.length, group.length) })),
  );
  const rest = model.cards
    .filter((c) => !ranked.some((r) => r.target === c.target))
    .map((c) => ({ target: c.target }));
  return [...ranked, ...rest];
}

/** The same words as the judgement's sentence gives each group. */
function placeWord(group: number, groups: number, size: number): string {
  const place = groups === 1 ? 'tied' : group === 0 ? 'fastest' : group === groups - 1 ? 'behind' : 'next';
  return size > 1 && groups > 1 ? `tied ${place}` : place;
}
