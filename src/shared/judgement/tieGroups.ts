/**
 * Tie groups: targets sorted by their figure, fastest first; a target opens a new group only when
 * its gap behind the current group's fastest member is established by the one comparison rule
 * (gapEvidence.ts). So a group holds every target no gap could be named within, and a target the
 * rule cannot judge (too few samples, no comparison) stays with the group before it.
 */
import { listText, shortMs } from './shortMs';

export interface Figure {
  target: string;
  p50Us: number;
}

export function tieGroups<T extends Figure>(
  entries: readonly T[],
  established: (faster: string, slower: string) => boolean,
): T[][] {
  const sorted = [...entries].sort((a, b) => a.p50Us - b.p50Us || a.target.localeCompare(b.target));
  const groups: T[][] = [];
  for (const entry of sorted) {
    const current = groups[groups.length - 1];
    if (current && !established(current[0]!.target, entry.target)) current.push(entry);
    else groups.push([entry]);
  }
  return groups;
}

/**
 * "planetscale-http fastest (1.2 ms); pg and pg-tls tied behind (3.4, 3.6 ms)": the groups in
 * words, without the question's title. When every target is tied, `samples` (the fewest samples
 * any of them has) says what the tie rests on: two figures far apart are tied on 10 samples because
 * 10 cannot tell them apart, which "tied" alone does not say.
 */
export function groupsText(groups: readonly (readonly Figure[])[], samples?: number): string {
  const figures = (g: readonly Figure[]) => `(${g.map((e) => shortMs(e.p50Us)).join(', ')} ms)`;
  const names = (g: readonly Figure[]) => listText(g.map((e) => e.target));
  if (groups.length === 1) {
    const from = samples === undefined ? '' : ` with ${samples} samples a target`;
    return `${names(groups[0]!)} tied ${figures(groups[0]!)}: no difference established${from}`;
  }
  return groups
    .map((g, i) => {
      const place = i === 0 ? 'fastest' : i === groups.length - 1 ? 'behind' : 'next';
      return `${names(g)} ${g.length > 1 ? 'tied ' : ''}${place} ${figures(g)}`;
    })
    .join('; ');
}
