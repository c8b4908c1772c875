/** The "differences" table: B - A at p50 and p95 with bootstrap 95% intervals, and what they establish. */
import type { Comparison } from '../src/shared/differences';
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
          h('th', { class: 'num' }, 'p50 B − A'),
          h('th', { class: 'num' }, 'p50 95% CI'),
          h('th', { class: 'num' }, 'p95 B − A'),
          h('th', { class: 'num' }, 'p95 95% CI'),
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
