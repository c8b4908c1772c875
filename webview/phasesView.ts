/**
 * Where a new connection spends its time (initial, p50 per step) and each target's figures over its
 * network floor: the section of the run panel, its chart's text alternative included. A step that
 * could not be measured says so, with why; a dash is a step that did not happen (an IP address needs
 * no DNS, a plaintext connection no TLS) or that the result does not split.
 */
import {
  PER_SAMPLE_KINDS,
  PHASE_LABELS,
  PHASE_STEPS,
  type ConnectAnatomy,
  type TargetFloor,
} from '../src/shared/connectPhases';
import type { RunViewModel } from '../src/shared/viewModel';
import { ms, signedMs } from '../src/shared/units';
import { h } from './dom';
import { wireParts } from './wireView';

/** The parts of the phases section; `chart` is the canvas the run view registered for drawing. */
export function phasesParts(model: RunViewModel, chart: HTMLElement): HTMLElement[] {
  const anatomy = model.anatomy ?? [];
  const floors = model.floors ?? [];
  // The table is the chart's text alternative: screen readers announce it with the chart.
  chart.querySelector('canvas')?.setAttribute('aria-describedby', 'phases-table');
  // A run with wire figures but no split connect (only `subsequent`): the wire table alone.
  if (anatomy.length === 0) return wireParts(model.wire ?? []);
  return [
    h(
      'p',
      { class: 'muted' },
      'p50 of each step of a new connection, then its first query. The TCP connect is one round trip on the wire with no database work in it: the network floor (the marker). What lies beyond it is the protocol and the database; "over the floor" = p50 − TCP p50.',
    ),
    chart,
    unmeasuredNotes(anatomy),
    anatomy.length > 0 ? phasesTable(anatomy) : undefined,
    floors.length > 0 ? floorsTable(floors) : undefined,
    ...wireParts(model.wire ?? []),
  ].filter((part): part is HTMLElement => part !== undefined);
}

export function phasesTable(rows: readonly ConnectAnatomy[]): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { id: 'phases-table' },
      h('caption', { class: 'muted' }, 'The figures of the chart above: p50 per step, ms.'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'target'),
          ...PHASE_STEPS.map((step) =>
            h('th', { class: 'num' }, step === 'tcp' ? 'TCP (floor)' : PHASE_LABELS[step]),
          ),
          h('th', { class: 'num' }, 'connect'),
          h('th', { class: 'num' }, 'total p50'),
          h('th', { class: 'num' }, 'over the floor'),
          h('th', {}, 'TLS handshakes'),
        ),
      ),
      h(
        'tbody',
        {},
        ...rows.map((row) =>
          h(
            'tr',
            { 'data-target': row.target },
            h('td', {}, row.target),
            ...row.steps.map((s) =>
              s.p50Us !== undefined
                ? h('td', { class: 'num', 'data-phase': s.step }, ms(s.p50Us))
                : s.unmeasured
                  ? h(
                      'td',
                      {
                        class: 'num muted',
                        'data-phase': s.step,
                        'data-unmeasured': 'true',
                        title: s.unmeasured,
                      },
                      'not measured',
                    )
                  : h('td', { class: 'num', 'data-phase': s.step }, '-'),
            ),
            h('td', { class: 'num', 'data-phase': 'connect' }, ms(row.connectP50Us)),
            h('td', { class: 'num', 'data-col': 'total' }, ms(row.totalP50Us)),
            h(
              'td',
              { class: 'num', 'data-col': 'over-floor' },
              row.floorUs === undefined ? '-' : signedMs(row.totalP50Us - row.floorUs),
            ),
            h('td', { class: 'muted' }, handshakes(row)),
          ),
        ),
      ),
    ),
  );
}

/** Each target's figures set against its network floor: how much is the database, how much distance. */
export function floorsTable(rows: readonly TargetFloor[]): HTMLElement {
  const kinds = PER_SAMPLE_KINDS.filter((kind) => rows.some((row) => row.kinds.some((k) => k.kind === kind)));
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { id: 'floor-table' },
      h(
        'caption',
        { class: 'muted' },
        'Over the network floor: p50 and p50 − TCP p50, ms (negative: faster than one TCP connect, as on loopback).',
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'target'),
          h('th', { class: 'num' }, 'floor (TCP p50)'),
          ...kinds.flatMap((kind) => [
            h('th', { class: 'num' }, `${kind} p50`),
            h('th', { class: 'num' }, `${kind} over the floor`),
          ]),
        ),
      ),
      h(
        'tbody',
        {},
        ...rows.map((row) =>
          h(
            'tr',
            { 'data-target': row.target },
            h('td', {}, row.target),
            h('td', { class: 'num', 'data-col': 'floor' }, ms(row.floorUs)),
            ...kinds.flatMap((kind) => {
              const figure = row.kinds.find((k) => k.kind === kind);
              return [
                h('td', { class: 'num' }, figure ? ms(figure.p50Us) : '-'),
                h('td', { class: 'num', 'data-over': kind }, figure ? signedMs(figure.overUs) : '-'),
              ];
            }),
          ),
        ),
      ),
    ),
  );
}

/** The steps that happened but could not be seen, named with why: never drawn, never a zero. */
function unmeasuredNotes(rows: readonly ConnectAnatomy[]): HTMLElement | undefined {
  const notes = rows.flatMap((row) =>
    row.steps.flatMap((s) =>
      s.unmeasured ? [`${PHASE_LABELS[s.step]} of ${row.target} not measured: ${s.unmeasured}`] : [],
    ),
  );
  if (notes.length === 0) return undefined;
  return h(
    'ul',
    { class: 'muted', 'data-unmeasured-notes': 'true' },
    ...notes.map((note) => h('li', {}, note)),
  );
}

function handshakes(row: ConnectAnatomy): string {
  const seen = row.tlsHandshakes;
  if (!seen) return '';
  return `${seen.full} full${seen.resumed > 0 ? `, ${seen.resumed} resumed` : ''}`;
}
