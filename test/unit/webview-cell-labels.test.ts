/**
 * A narrow panel labels each figure with its head (webview/cellLabels.ts): under a head of two rows
 * (a run group's places over p50 / p95 / p99) every cell names both rows and its unit, each place's
 * first cell starts a line, and a cell spanning a place's columns is named by the place alone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellLabels, type LabelledCell } from '../../webview/cellLabels';

const cell = (text: string, extra: Partial<LabelledCell> = {}): LabelledCell => ({
  colSpan: 1,
  rowSpan: 1,
  textContent: text,
  dataset: {},
  ...extra,
});

/** The run group's head: target and kind over both rows, then per place its three figures in ms. */
function groupHead(places: string[]): LabelledCell[][] {
  return [
    [
      cell('target', { rowSpan: 2 }),
      cell('kind', { rowSpan: 2 }),
      ...places.map((p) =>
        // The head's text holds a detail line as well; its label is the place's name.
        cell(`from ${p}runner, Linux x64`, { colSpan: 3, dataset: { label: `from ${p}` } }),
      ),
    ],
    places.flatMap(() => ['p50', 'p95', 'p99'].map((s) => cell(s, { dataset: { unit: 'ms' } }))),
  ];
}

test('under a head of two rows, each cell carries both rows and its unit; a place starts a line', () => {
  const labels = cellLabels(groupHead(['this machine', 'us-east-1']), [
    ['pg', 'initial', '1.000', '2.000', '3.000', '4.000', '5.000', '6.000'].map((t) => cell(t)),
  ]);
  assert.ok(labels);
  assert.deepEqual(labels[0], [
    { groupStart: false },
    { label: 'kind', groupStart: false },
    { label: 'from this machine · p50', unit: 'ms', groupStart: true },
    { label: 'from this machine · p95', unit: 'ms', groupStart: false },
    { label: 'from this machine · p99', unit: 'ms', groupStart: false },
    { label: 'from us-east-1 · p50', unit: 'ms', groupStart: true },
    { label: 'from us-east-1 · p95', unit: 'ms', groupStart: false },
    { label: 'from us-east-1 · p99', unit: 'ms', groupStart: false },
  ]);
});

test("a cell spanning a place's columns is named by the place, without one column's unit", () => {
  const labels = cellLabels(groupHead(['this machine', 'us-east-1']), [
    [cell('redis'), cell('initial'), cell('not run here', { colSpan: 3 }), cell('1'), cell('2'), cell('3')],
  ]);
  assert.deepEqual(labels?.[0]?.slice(2), [
    { label: 'from this machine', groupStart: true },
    { label: 'from us-east-1 · p50', unit: 'ms', groupStart: true },
    { label: 'from us-east-1 · p95', unit: 'ms', groupStart: false },
    { label: 'from us-east-1 · p99', unit: 'ms', groupStart: false },
  ]);
});

test('a head of one row labels as before: its column head, no group', () => {
  const head = [['target', 'kind', 'n', 'p50'].map((t) => cell(t))];
  assert.deepEqual(cellLabels(head, [['pg', 'initial', '100', '1.0'].map((t) => cell(t))]), [
    [
      { groupStart: false },
      { label: 'kind', groupStart: false },
      { label: 'n', groupStart: false },
      { label: 'p50', groupStart: false },
    ],
  ]);
});

test('a table it cannot label is left as it is: a body cell spanning rows, a row wider than the head', () => {
  const head = [['target', 'p50'].map((t) => cell(t))];
  assert.equal(cellLabels(head, [[cell('pg', { rowSpan: 2 }), cell('1.0')]]), undefined);
  assert.equal(cellLabels(head, [['pg', '1.0', '2.0'].map((t) => cell(t))]), undefined);
});
