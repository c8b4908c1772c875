/** The "differences" table: B - A at p50 and p95 with bootstrap 95% intervals, and what they establish. */
import { samplesNeededAt, type Comparison } from '../src/shared/judgement/differences';
import { signedMs } from '../src/shared/units';
import { h } from './dom';

export function differencesTable(comparisons: Comparison[], id: string): HTMLElement {
  const perTarget = comparisons.some((c) => c.target !== undefined);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { id },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          perTarget ? h('th', {}, 'target') : undefined,
          h('th', {}, 'kind'),
          perTarget ? undefined : h('th', {}, 'A'),
          perTarget ? undefined : h('th', {}, 'B'),
          h('th', { class: 'num', title: 'Samples each side of the interval used' }, 'n (A / B)'),
          h('th', { class: 'num', 'data-unit': 'ms' }, 'p50 B − A'),
          h('th', { class: 'num', 'data-unit': 'ms' }, 'p50 95% CI'),
          h('th', { class: 'num', 'data-unit': 'ms' }, 'p95 B − A'),
          h('th', { class: 'num', 'data-unit': 'ms' }, 'p95 95% CI'),
          h('th', {}, 'verdict'),
        ),
      ),
      h('tbody', {}, ...comparisons.map((c) => rowOf(c, perTarget))),
    ),
  );
}

function rowOf(c: Comparison, perTarget: boolean): HTMLElement {
  const used = (n: number, kept: number) => (n === kept ? String(n) : `${n} of ${kept}`);
  return h(
    'tr',
    {
      'data-kind': c.kind,
      'data-a': c.a,
      'data-b': c.b,
      'data-established': c.differences.map((d) => `p${d.percentile}:${d.established}`).join(' '),
    },
    perTarget ? h('td', {}, c.target ?? '') : undefined,
    h('td', {}, c.kind),
    perTarget ? undefined : h('td', {}, c.a),
    perTarget ? undefined : h('td', {}, c.b),
    h(
      'td',
      { class: 'num' },
      `${used(c.samples.a, c.samples.keptA)} / ${used(c.samples.b, c.samples.keptB)}`,
    ),
    ...c.differences.flatMap((d) => [
      h(
        'td',
        { class: `num ${d.established ? (d.diffUs > 0 ? 'worse' : 'better') : 'muted'}` },
        signedMs(d.diffUs),
      ),
      h('td', { class: 'num' }, `${signedMs(d.lowUs)} to ${signedMs(d.highUs)}`),
    ]),
    h('td', {}, ...c.differences.map((d) => h('div', { class: d.established ? '' : 'muted' }, d.text))),
  );
}

/**
 * The run panel's Differences: one short line per pair of comparable targets, what the interval
 * establishes in a few words (the whole sentence in the row's tooltip). A percentile the run has too
 * few samples to judge is left out of every row and named once under the table (pairsNote).
 */
export function pairsTable(comparisons: Comparison[], id: string): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { id, class: 'pairs' },
      h(
        'thead',
        {},
        h('tr', {}, h('th', {}, 'kind'), h('th', {}, 'pair'), h('th', {}, 'what the samples establish')),
      ),
      h('tbody', {}, ...comparisons.map(pairRow)),
    ),
  );
}

/** Percentiles left out of every row because the samples are too few at them, said once. */
export function pairsNote(comparisons: Comparison[]): string | undefined {
  const thin = comparisons.flatMap((c) =>
    c.differences.filter((d) => thinTail(c, d.percentile)).map((d) => ({ c, p: d.percentile })),
  );
  if (thin.length === 0) return undefined;
  const percentiles = [...new Set(thin.map((t) => t.p))].sort((a, b) => a - b);
  const fewest = Math.min(...thin.map((t) => Math.min(t.c.samples.a, t.c.samples.b)));
  return `p${percentiles.join(', p')} ${percentiles.length === 1 ? 'is' : 'are'} not judged where a side has too few samples above ${percentiles.length === 1 ? 'it' : 'them'} (${percentiles.map((p) => `p${p}: ${samplesNeededAt(p)} a side`).join(', ')}; this run has ${fewest}).`;
}

function thinTail(c: Comparison, p: number): boolean {
  return Math.min(c.samples.a, c.samples.b) < samplesNeededAt(p);
}

function pairRow(c: Comparison): HTMLElement {
  const judged = c.differences.filter((d) => !thinTail(c, d.percentile));
  const established = judged.filter((d) => d.established);
  const words = established.length > 0 ? established.map(fasterText) : ['within noise'];
  const p50 = judged.find((d) => d.percentile === 50);
  const figure =
    p50 && established.length === 0
      ? ` (p50 ${c.b} − ${c.a} ${signedMs(p50.diffUs)} ms, 95% CI ${signedMs(p50.lowUs)} to ${signedMs(p50.highUs)})`
      : '';
  return h(
    'tr',
    {
      'data-kind': c.kind,
      'data-a': c.a,
      'data-b': c.b,
      'data-established': c.differences.map((d) => `p${d.percentile}:${d.established}`).join(' '),
      title: c.differences.map((d) => d.text).join('\n'),
    },
    h('td', {}, c.kind),
    h('td', { class: 'name' }, `${c.a} · ${c.b}`),
    h('td', { class: established.length > 0 ? 'crossover' : 'muted' }, words.join('; ') + figure),
  );
}

/** "a is 3.100 ms faster than b at p50", the interval left to the tooltip. */
function fasterText(d: Comparison['differences'][number]): string {
  return d.text.replace(/ \(95% CI [^)]*\)$/, '');
}
