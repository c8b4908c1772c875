/**
 * Names the crossover points of the "expected latency for N queries" chart: a target that pays more
 * to connect but less per query (TCP next to HTTP) wins once a request makes enough queries.
 */
import { crossover, type ExpectedRow } from '../../report/expected';
import type { Crossover } from '../../shared/viewModel';

export function findCrossovers(
  rows: readonly ExpectedRow[],
  transports: ReadonlyMap<string, string>,
): Crossover[] {
  const found: Crossover[] = [];
  for (const a of rows) {
    for (const b of rows) {
      if (a === b) continue;
      const from = crossover(a, b);
      if (from === undefined) continue;
      found.push({
        winner: a.target,
        loser: b.target,
        fromQueries: from,
        text: sentence(a.target, b.target, from, transports),
      });
    }
  }
  return found.sort((x, y) => x.fromQueries - y.fromQueries || x.winner.localeCompare(y.winner));
}

function sentence(
  winner: string,
  loser: string,
  from: number,
  transports: ReadonlyMap<string, string>,
): string {
  const tw = transports.get(winner);
  const tl = transports.get(loser);
  const queries = `from ${from} queries per request`;
  // "TCP wins from 3 queries per request" reads best when the transports tell the two apart.
  if (tw && tl && tw !== tl) {
    return `${tw.toUpperCase()} wins ${queries}: ${winner} (${tw}) overtakes ${loser} (${tl})`;
  }
  return `${winner} overtakes ${loser} ${queries}`;
}
