/**
 * The RTT from which one target is ahead of another for a request of k queries, by the rule the
 * app-location ranking uses (gapEstablished at that RTT): the request's line, initial + (k - 1) x
 * subsequent, mixes two kinds' turns, so no single kind's overtake (projectionOvertakes.ts) can say
 * where it flips. Naming the RTT the ranking itself would name keeps the crossover line and the
 * ranking at any app RTT from contradicting each other.
 */
import { gapEstablished, type GapContext, type QuestionPart } from './gapEvidence';

/** The farthest app the line looks to (a continent away and back, and then some). */
export const REQUEST_OVERTAKE_MAX_US = 500_000;
/** Fine enough for a figure printed to two digits below 10 ms. */
const RESOLUTION_US = 10;

/**
 * The lowest RTT (µs, to RESOLUTION_US) at which `winner` is established ahead of `loser` for the
 * question made of `parts`, or undefined when it is not at any RTT up to REQUEST_OVERTAKE_MAX_US.
 */
export function requestOvertakeRtt(
  winner: string,
  loser: string,
  parts: readonly QuestionPart[],
  gaps: GapContext,
): number | undefined {
  const ahead = (rttUs: number) => gapEstablished(winner, loser, parts, gaps, rttUs);
  if (ahead(0)) return undefined; // ahead here already: nothing to overtake
  // A coarse doubling walk first: a relative minimum effect can make "ahead" flicker near the edge.
  let low = 0;
  let high = 100;
  while (high <= REQUEST_OVERTAKE_MAX_US && !ahead(high)) {
    low = high;
    high *= 2;
  }
  if (high > REQUEST_OVERTAKE_MAX_US)
    return ahead(REQUEST_OVERTAKE_MAX_US) ? REQUEST_OVERTAKE_MAX_US : undefined;
  while (high - low > RESOLUTION_US) {
    const mid = (low + high) / 2;
    if (ahead(mid)) high = mid;
    else low = mid;
  }
  return high;
}
