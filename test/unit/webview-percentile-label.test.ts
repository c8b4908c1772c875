/**
 * The percentiles chart's label and its bars come from the same rows (webview/percentileBars.ts):
 * the label names the percentiles the chart draws, no more.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { MIN_SAMPLES_FOR } from '../../src/shared/percentileSupport';
import type { RunViewModel } from '../../src/shared/viewModel';
import { percentilesLabel, shownPercentiles } from '../../webview/percentileBars';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

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

test('the percentiles chart is labelled with the percentiles it draws, p99 only when supported', async () => {
  const few = await model(10);
  assert.ok(10 < MIN_SAMPLES_FOR.p99Us, 'ten samples cannot support a p99');
  assert.deepEqual(
    shownPercentiles(few).map((p) => p.label),
    ['p50', 'p95'],
  );
  assert.equal(percentilesLabel(few), 'Bar chart of p50 and p95 per target and probe kind');

  const many = await model(MIN_SAMPLES_FOR.p99Us);
  assert.deepEqual(
    shownPercentiles(many).map((p) => p.label),
    ['p50', 'p95', 'p99'],
  );
  assert.equal(percentilesLabel(many), 'Bar chart of p50, p95 and p99 per target and probe kind');
});
