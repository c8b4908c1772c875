/**
 * Each chart of the run panel is one definition (webview/chartDefinitions.ts): its label says what
 * its configuration draws, so the two cannot drift apart.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { MIN_SAMPLES_FOR } from '../../src/shared/percentileSupport';
import type { RunViewModel } from '../../src/shared/viewModel';
import { CHARTS, type ChartDefinition } from '../../webview/chartDefinitions';
import type { ChartTheme } from '../../webview/theme';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const THEME: ChartTheme = {
  foreground: '#000000',
  background: '#ffffff',
  grid: '#cccccc',
  font: 'sans-serif',
  highContrast: false,
  series: ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b'],
};

// The chart configurations ask the page for its theme and resolve colours through it (webview/theme.ts):
// the least of a page that lets them run here.
Object.assign(globalThis, {
  document: {
    body: { classList: { contains: () => false }, append: () => undefined },
    createElement: () => ({ style: {}, remove: () => undefined }),
  },
  getComputedStyle: () => ({ color: 'rgb(0, 0, 0)' }),
});

async function model(iterations: number): Promise<RunViewModel> {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver('tcp', clock, { connectUs: [20_000], queryUs: [1_000] }, new FakeDriverStats()),
  ]);
  const result = await runPlan(plan([target('tcp')], { iterations, warmup: 0 }), {
    registry,
    resolveConnection: async () => 'fake://u:p@h/db',
    tool: TOOL,
    clock,
    watchClient: false,
  });
  return buildRunViewModel(result);
}

function drawnPercentiles(m: RunViewModel): string[] {
  const config = (CHARTS.percentiles as ChartDefinition).configure(m, THEME);
  return config.data.datasets.map((d) => String(d.label));
}

test('the percentiles chart is labelled with the percentiles it draws, p99 only when supported', async () => {
  const few = await model(10);
  assert.ok(10 < MIN_SAMPLES_FOR.p99Us, 'ten samples cannot support a p99');
  assert.deepEqual(drawnPercentiles(few), ['p50', 'p95']);
  assert.equal(CHARTS.percentiles.label(few), 'Bar chart of p50 and p95 per target and probe kind');

  const many = await model(MIN_SAMPLES_FOR.p99Us);
  assert.deepEqual(drawnPercentiles(many), ['p50', 'p95', 'p99']);
  assert.equal(CHARTS.percentiles.label(many), 'Bar chart of p50, p95 and p99 per target and probe kind');
});

test('every chart has a label of its own, so a screen reader tells them apart', async () => {
  const m = await model(10);
  const labels = Object.values(CHARTS).map((definition: ChartDefinition) => definition.label(m));
  assert.equal(new Set(labels).size, labels.length, labels.join('\n'));
  assert.ok(labels.every((label) => label.length > 10));
});
