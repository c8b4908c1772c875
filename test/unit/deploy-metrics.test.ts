/**
 * The Grafana dashboard (deploy/grafana/dbprobe.json) and the Prometheus alert rules
 * (deploy/prometheus/dbprobe-rules.yml) name only metrics `dbprobe watch` serves: a renamed metric
 * leaves no panel blank and no alert silent. And docs/watch.md's table of renamed metrics lists
 * names the watch no longer serves, each with its successor, which it does.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { WatchMetrics } from '../../src/report/watchMetrics';
import type { ColdFigures } from '../../src/shared/result';
import { dashboardQueries, ruleExpressions } from '../helpers/deployFiles';
import { fakeResult, stats } from '../helpers/extensionRunResult';

const ROOT = path.resolve(__dirname, '../..');

/** The exposition of a watch that has seen every kind of series: latencies, errors, cold starts. */
async function everyFamily(): Promise<string> {
  const metrics = new WatchMetrics();
  const result = fakeResult(
    [{ name: 'pg', driver: 'pg', transport: 'tcp' }],
    [
      { target: 'pg', kind: 'initial', p50Us: 900, errors: 1 },
      { target: 'pg', kind: 'subsequent', p50Us: 90 },
      { target: 'pg', kind: 'cold', p50Us: 400_000 },
    ],
  );
  const cold: ColdFigures = {
    mode: 'idle-wait',
    hot: stats(900),
    hotConnect: stats(700),
    coldStart: {
      count: 10,
      minUs: 1,
      meanUs: 2,
      stddevUs: 1,
      p50Us: 399_000,
      p99Us: 450_000,
      maxUs: 460_000,
    },
    pairs: [],
  };
  const withCold = {
    ...result,
    measurements: result.measurements.map((m) => (m.kind === 'cold' ? { ...m, cold } : m)),
  };
  metrics.onEvent({
    type: 'sample',
    target: 'pg',
    kind: 'initial',
    phase: 'measure',
    index: 0,
    atUs: 0,
    us: 900,
  });
  metrics.onResult(withCold);
  return metrics.render();
}

/** Names of the series in an exposition (histograms with their _bucket, _sum and _count). */
function servedNames(exposition: string): Set<string> {
  return new Set(
    exposition
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0] ?? line),
  );
}

/** Every dbprobe_* name in a PromQL expression. */
function metricNames(expr: string): string[] {
  return [...expr.matchAll(/\bdbprobe_[a-z0-9_]+/g)].map((m) => m[0]);
}

test('every metric the dashboard queries is one the watch serves', async () => {
  const served = servedNames(await everyFamily());
  const queries = dashboardQueries();
  assert.ok(queries.length >= 10, `only ${queries.length} queries found in the dashboard`);
  const named = new Set<string>();
  for (const { where, expr } of queries) {
    const names = metricNames(expr);
    assert.ok(names.length > 0, `${where} names no dbprobe metric: ${expr}`);
    for (const name of names) {
      named.add(name);
      assert.ok(served.has(name), `${where} queries ${name}, which the watch does not serve`);
    }
  }
  // The four views: latency per target and kind, success, errors by class, cold starts.
  for (const name of [
    'dbprobe_probe_quantile_seconds',
    'dbprobe_probe_seconds_bucket',
    'dbprobe_probe_success',
    'dbprobe_probe_errors_total',
    'dbprobe_cold_start_quantile_seconds',
    'dbprobe_cold_starts_total',
  ])
    assert.ok(named.has(name), `no panel shows ${name}`);
});

test('every metric the alert rules name is one the watch serves', async () => {
  const served = servedNames(await everyFamily());
  const rules = ruleExpressions();
  assert.deepEqual(
    rules.map((r) => r.alert),
    [
      'DBProbeTargetDown',
      'DBProbeSubsequentP99OverBudget',
      'DBProbeInitialP99OverBudget',
      'DBProbeErrorRateHigh',
      'DBProbeWatchStalled',
    ],
  );
  for (const { alert, expr } of rules) {
    const names = metricNames(expr);
    assert.ok(names.length > 0, `${alert} names no dbprobe metric: ${expr}`);
    for (const name of names)
      assert.ok(served.has(name), `${alert} uses ${name}, which the watch does not serve`);
  }
  assert.match(rules[0]!.expr, /^dbprobe_probe_success == 0$/);
});

test("docs/watch.md's renamed metrics: the old names are gone, their successors served", async () => {
  const served = servedNames(await everyFamily());
  const doc = readFileSync(path.join(ROOT, 'docs/watch.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Renamed metrics'));
  assert.ok(section.length < doc.length, 'docs/watch.md has a "Renamed metrics" section');
  const rows = [
    ...section.matchAll(/^\| `(dbprobe_[a-z0-9_]+)`[^|]*\| `(dbprobe_[a-z0-9_]+)(\{[^`]*\})?`[^|]*\|/gm),
  ];
  assert.ok(rows.length >= 5, `only ${rows.length} renamed metrics in the table`);
  for (const [, old, successor] of rows) {
    assert.ok(!served.has(old!), `${old} is listed as renamed but still served`);
    assert.ok(served.has(successor!), `${old}'s successor ${successor} is not served`);
  }
});
