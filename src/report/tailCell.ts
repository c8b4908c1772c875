/**
 * A tail percentile's table cell: the figure, or a dash marked for the "n too small" footnote when
 * the count cannot support it (see src/shared/percentileSupport.ts).
 */
import { N_TOO_SMALL_NOTE, supports } from '../shared/percentileSupport';
import type { LatencyStats } from '../shared/result';

/** The mark beside a withheld figure; the footnote line starts with it. */
export const TOO_SMALL_MARK = '-†';

/** The figure formatted by `format`, or the marked dash when `count` samples cannot support it. */
export function tailCell(
  count: number,
  key: keyof LatencyStats,
  value: number,
  format: (us: number) => string,
): string {
  return supports(count, key) ? format(value) : TOO_SMALL_MARK;
}

/** The footnote, when any of `cells` was withheld. */
export function tooSmallFootnote(cells: readonly string[]): string[] {
  return cells.some((c) => c.includes(TOO_SMALL_MARK)) ? ['', `† ${N_TOO_SMALL_NOTE}`] : [];
}
