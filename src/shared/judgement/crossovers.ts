/**
 * Names the crossover points of the "expected latency for N queries" chart: a target that pays more
 * to connect but less per query (TCP next to HTTP) wins once a request makes enough queries.
 *
 * One evidence per question: a request of k queries is the question the verdict ranks (judgeRun.ts,
 * "Request of k queries"), so a crossover is decided by the verdict's own rule at each k
 * (gapEstablished: the Differences table's p50 rows, initial + (k - 1) x subsequent, by
 * judgeDifference), never by a second test. A crossover is named only when that rule puts the other
 * target ahead at some k below the point where the p50 lines cross and this one ahead at some k at
 * or above it, and it is named from the first k the rule puts it ahead: so at every k the section
 * names, the verdict for a request of k says the same. It is not named where the verdict's own
 * ranking of a request (at its k) keeps the two in one group. Otherwise the pair is said to be not
 * established. Only targets of one workload class are set against each other (sectionScope.ts).
 */
import type { ExpectedRow } from './expected';
import { crossover } from './expected';
import { gapEstablished, gapEvidence, type GapContext, type QuestionPart } from './gapEvidence';
import { signedMs } from '../units';

export interface Crossover {
  /** The target that starts slower but wins from `fromQueries` on. */
  winner: string;
  loser: string;
  fromQueries: number;
  /** A sentence naming the point, e.g. "TCP wins from 3 queries per request". */
  text: string;
}

/** Query counts the crossovers are looked for in (the panel's expected-latency chart's). */
export const REQUEST_CROSSOVER_QUERIES = 10;

export interface CrossoverFindings {
  crossovers: Crossover[];
  /** One sentence per pair whose p50 lines cross but the verdict's rule does not establish a crossover. */
  withinNoise: string[];
}

export interface CrossoverContext {
  gaps: GapContext;
  transports: ReadonlyMap<string, string>;
  /** Whether two targets may be set against each other (the same workload class). */
  comparable: (a: string, b: string) => boolean;
  /** The verdict's ranking of a request here: its k and its groups' targets, fastest first. */
  verdict?: { queries: number; groups: string[][] };
}

/** The parts of a request of k queries: one new connection, then k - 1 warm queries. */
export function requestParts(k: number): QuestionPart[] {
  return k > 1
    ? [
        { kind: 'initial', weight: 1 },
        { kind: 'subsequent', weight: k - 1 },
      ]
    : [{ kind: 'initial', weight: 1 }];
}

export function findCrossovers(rows: readonly ExpectedRow[], context: CrossoverContext): CrossoverFindings {
  const found: Crossover[] = [];
  const withinNoise: string[] = [];
  const max = Math.max(0, ...rows.map((r) => r.totalsUs.length));
  const ahead = (faster: string, slower: string, k: number) =>
    gapEstablished(faster, slower, requestParts(k), context.gaps);
  for (const a of rows) {
    for (const b of rows) {
      if (a === b || !context.comparable(a.target, b.target)) continue;
      const cross = crossover(a, b);
      if (cross === undefined) continue;
      const counts = Array.from({ length: max }, (_, i) => i + 1);
      const below = counts.filter((k) => k < cross).find((k) => ahead(b.target, a.target, k));
      const from = counts.filter((k) => k >= cross).find((k) => ahead(a.target, b.target, k));
      const lines = `their p50 lines cross at ${cross} queries per request`;
      if (below === undefined || from === undefined) {
        withinNoise.push(
          `${a.target} and ${b.target}: ${lines}, but the rule the verdict ranks a request by does not establish ${below === undefined ? `${b.target} ahead below it` : `${a.target} ahead from it`} within ${max} queries, so no crossover is named.`,
        );
        continue;
      }
      const grouped = context.verdict?.groups.find((g) => g.includes(a.target));
      if (context.verdict && from <= context.verdict.queries && grouped?.includes(b.target)) {
        withinNoise.push(
          `${a.target} and ${b.target}: ${lines}, but the verdict ranks them tied for a request of ${context.verdict.queries} queries here, so no crossover is named.`,
        );
        continue;
      }
      found.push({
        winner: a.target,
        loser: b.target,
        fromQueries: from,
        text: `${sentence(a.target, b.target, from, context.transports)} here (${evidence(a.target, b.target, below, from, context.gaps)}${from !== cross ? `; ${lines}` : ''})`,
      });
    }
  }
  return {
    crossovers: found.sort((x, y) => x.fromQueries - y.fromQueries || x.winner.localeCompare(y.winner)),
    withinNoise,
  };
}

/** The intervals the verdict's rule read on each side, as a - b. */
function evidence(a: string, b: string, below: number, from: number, gaps: GapContext): string {
  const before = gapEvidence(b, a, requestParts(below), gaps);
  const after = gapEvidence(a, b, requestParts(from), gaps);
  const range = (low: number, high: number) => `${signedMs(low)} to ${signedMs(high)}`;
  const queries = (k: number) => `${k} ${k === 1 ? 'query' : 'queries'}`;
  const parts = [
    before ? `${range(before.lowUs, before.highUs)} ms at ${queries(below)}` : undefined,
    after ? `${range(-after.highUs, -after.lowUs)} ms at ${queries(from)}` : undefined,
  ].filter((p) => p !== undefined);
  return `95% CI of ${a} - ${b}, as the verdict ranks a request: ${parts.join(', ')}`;
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
