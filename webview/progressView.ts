/**
 * A run under way: overall progress (a native progress bar, read by screen readers), elapsed time, a
 * Cancel button, and a table per place of samples taken / asked and errors per target and kind.
 * Built once, then updated in place at each progress message, so the Cancel button keeps the
 * keyboard focus and a screen reader is not interrupted: only a change of state (cancelling, a place
 * done or failed) goes to the live region, never the counts.
 */
import type { ProgressPlaceView, ProgressRowView, ProgressViewModel } from '../src/shared/viewModel';
import { ms } from '../src/shared/units';
import { h } from './dom';

interface ProgressDom {
  bar: HTMLProgressElement;
  figures: HTMLElement;
  status: HTMLElement;
  cancel: HTMLButtonElement;
  places: HTMLElement;
}

let dom: ProgressDom | undefined;

/** Draws (the first time) or updates the progress view in `root`. */
export function renderProgress(root: HTMLElement, model: ProgressViewModel, onCancel: () => void): void {
  if (!dom || !root.contains(dom.bar)) dom = build(root, model, onCancel);
  const percent = Math.min(100, Math.max(0, model.percent));
  dom.bar.value = percent;
  dom.bar.setAttribute('aria-valuetext', `${Math.floor(percent)}%, ${seconds(model.elapsedMs)} elapsed`);
  dom.figures.textContent = `${Math.floor(percent)}% · ${seconds(model.elapsedMs)} elapsed`;
  const status = statusOf(model);
  if (dom.status.textContent !== status) dom.status.textContent = status;
  if (model.state === 'cancelling' && !dom.cancel.disabled) {
    dom.cancel.disabled = true;
    dom.cancel.textContent = 'Cancelling…';
  }
  const several = model.places.length > 1;
  dom.places.replaceChildren(...model.places.map((place, index) => placeTable(place, index, several)));
}

/** Forget the built view (another view replaced it). */
export function leaveProgress(): void {
  dom = undefined;
}

function build(root: HTMLElement, model: ProgressViewModel, onCancel: () => void): ProgressDom {
  const bar = h('progress', { max: '100', value: '0', 'aria-labelledby': 'progress-title' });
  const figures = h('p', { class: 'muted', id: 'progress-figures' });
  const status = h('p', { id: 'progress-status', role: 'status' });
  const cancel = h('button', { type: 'button', id: 'progress-cancel' }, 'Cancel run');
  cancel.addEventListener('click', () => {
    if (cancel.disabled) return;
    onCancel();
  });
  const places = h('div', { id: 'progress-places' });
  root.replaceChildren(
    h(
      'section',
      { id: 'progress', 'aria-labelledby': 'progress-title' },
      h('h2', { id: 'progress-title', class: 'name', title: model.title }, `Probing ${model.title}`),
      h('div', { class: 'progress-head' }, bar, figures, cancel),
      status,
      places,
    ),
  );
  return { bar, figures, status, cancel, places };
}

function statusOf(model: ProgressViewModel): string {
  if (model.state === 'cancelling') return 'Cancelling: the panel will show what was measured until now.';
  const ended = model.places.filter((p) => p.state === 'done' || p.state === 'failed');
  if (model.places.length > 1 && ended.length > 0)
    return ended.map((p) => `${p.label}: ${p.state === 'done' ? 'done' : 'failed'}`).join(' · ');
  return 'Running: each row’s p50 so far as its samples arrive; the whole result shows here when the run ends.';
}

function placeTable(place: ProgressPlaceView, index: number, several: boolean): HTMLElement {
  const caption = several
    ? `${place.label}: ${placeState(place)}`
    : `Samples per target and kind (${place.label})`;
  const rows = place.rows.map((row) =>
    h(
      'tr',
      { 'data-target': row.target, 'data-kind': row.kind },
      h('th', { scope: 'row', class: 'name', title: row.target }, row.target),
      // What the row waits for (a cold step, a load level) sits under its kind: no column of its own
      // that stays empty for the counted kinds.
      h('td', {}, row.kind, ...noteOf(row)),
      h('td', { 'data-stat': 'done' }, row.asked > 0 ? `${row.done} / ${row.asked}` : String(row.done)),
      h('td', { 'data-stat': 'errors' }, row.errors),
      h('td', { 'data-stat': 'p50' }, row.p50Us === undefined ? '' : ms(row.p50Us)),
    ),
  );
  return h(
    'table',
    { class: 'progress-table', 'data-place': String(index) },
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Target'),
        h('th', { scope: 'col' }, 'Kind'),
        h('th', { scope: 'col' }, 'Samples done / asked'),
        h('th', { scope: 'col' }, 'Errors'),
        h(
          'th',
          { scope: 'col', title: 'p50 of the samples measured so far, ms (warm-up left out)' },
          'p50 so far',
        ),
      ),
    ),
    h('tbody', {}, ...(rows.length > 0 ? rows : [h('tr', {}, h('td', { colspan: '5' }, 'starting…'))])),
  );
}

/** The row's note and a load row's levels, under its kind. */
function noteOf(row: ProgressRowView): HTMLElement[] {
  const levels = levelsText(row);
  return [
    ...(row.note !== undefined
      ? [h('div', { class: 'progress-note muted', 'data-note': '' }, row.note)]
      : []),
    ...(levels ? [levels] : []),
  ];
}

/** A load row's finished levels, each with what it did, as they finish. */
function levelsText(row: ProgressRowView): HTMLElement | undefined {
  if (!row.levels || row.levels.length === 0) return undefined;
  return h(
    'ul',
    { class: 'progress-levels' },
    ...row.levels.map((l) =>
      h(
        'li',
        { 'data-level': String(l.level) },
        `${l.level}: ${Math.round(l.achievedRate).toLocaleString('en-US')}/s answered, ${l.completed.toLocaleString('en-US')} queries, ${l.errors} errors${l.dropped > 0 ? `, ${l.dropped} never started` : ''}${l.late > 0 ? `, ${l.late} late` : ''}`,
      ),
    ),
  );
}

function placeState(place: ProgressPlaceView): string {
  if (place.state === 'running') return `${Math.floor(place.percent)}%`;
  return place.state === 'waiting' ? 'starting' : place.state;
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
