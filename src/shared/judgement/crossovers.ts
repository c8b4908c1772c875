/**
 * Names the crossover points of the "expected latency for N queries" chart: a target that pays more
 * to connect but less per query (TCP next to HTTP) wins once a request makes enough queries. Only
 * crossovers the run's samples establish are named (src/report/expected.ts says how); a pair whose
 * lines cross within the noise is said to be within noise of each other instead.
 */
import { crossoverVerdict, type ExpectedRow } from './expected';
import type { MinEffect } from './minEffect';
import { ms } from '../units';
import type { Crossover } from '../viewModel';

export interface CrossoverFindings {
  crossovers: Crossover[];
  /** One sentence per pair whose lines cross by their p50s but not by evidence. */
  withinNoise: string[];
}

export function findCrossovers(
  rows: readonly ExpectedRow[],
  transports: ReadonlyMap<string, string>,
  rule: { minEffect?: MinEffect } = {},
): CrossoverFindings {
  const found: Crossover[] = [];
  const withinNoise: string[] = [];
  for (const a of rows) {
    for (const b of rows) {
      if (a === b) continue;
      const verdict = crossoverVerdict(a, b, rule);
      if (verdict === undefined) continue;
      if (verdict.state === 'noise') {
        withinNoise.push(
          `${a.target} and ${b.target} are within noise of each other${verdict.fromQueries ? ` where their p50 lines cross (${verdict.fromQueries} queries)` : ''}: ${verdict.reason}, so no crossover is named.`,
        );
        continue;
      }
      const { fromQueries, below, above } = verdict;
      const evidence = `95% CI of ${a.target} - ${b.target}: ${range(below.lowUs, below.highUs)} ms at ${below.queries} ${below.queries === 1 ? 'query' : 'queries'}, ${range(above.lowUs, above.highUs)} ms at ${above.queries}`;
      found.push({
        winner: a.target,
        loser: b.target,
        fromQueries,
        text: `${sentence(a.target, b.target, fromQueries, transports)} (${evidence})`,
      });
    }
  }
  return {
    crossovers: found.sort((x, y) => x.fromQueries - y.fromQueries || x.winner.localeCompare(y.winner)),
    withinNoise,
  };
}

function range(low: number, high: number): string {
  const signed = (us: number) => (us < 0 ? `-${ms(-us)}` : `+${ms(us)}`);
  return `${signed(low)} to ${signed(high)}`;
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
