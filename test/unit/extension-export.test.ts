import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultExportName, exportText, markdownWithCharts } from '../../src/extension/export/exportText';
import { formatMermaidCharts, niceCeiling } from '../../src/report/mermaid';
import { Redactor } from '../../src/shared/redact';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { fakeResult } from '../helpers/extensionRunResult';
import { around, projectedRun, type Side } from '../helpers/projectionResult';

/** A pg-like target: 4 round trips and a TCP handshake per new connection, 1 per warm query. */
function pgLike(name: string, initialUs: number, subsequentUs: number): Side {
  const wire = (roundTrips: number, tcpHandshakes: number) => ({ roundTrips, tcpHandshakes });
  return {
    name,
    tcpUs: 100,
    initial: { samplesUs: around(initialUs, initialUs / 10), wire: wire(4, 1) },
    subsequent: { samplesUs: around(subsequentUs, subsequentUs / 10), wire: wire(1, 0) },
  };
}

const TARGETS = [
  { name: 'pg', driver: 'pg', transport: 'tcp' },
  { name: 'turso "http"', driver: 'libsql', transport: 'http' },
];
const result = fakeResult(TARGETS, [
  { target: 'pg', kind: 'initial', p50Us: 4000, p95Us: 6000 },
  { target: 'turso "http"', kind: 'initial', p50Us: 2000, p95Us: 2500 },
  { target: 'pg', kind: 'subsequent', p50Us: 500, p95Us: 800 },
  { target: 'turso "http"', kind: 'subsequent', p50Us: 1800, p95Us: 2100 },
]);

test('mermaid: one xychart per kind, p95 drawn behind p50, labels cannot break the chart', () => {
  const charts = formatMermaidCharts(result);
  const blocks = charts.split('```mermaid').slice(1);
  assert.equal(blocks.length, 2);
  const initial = blocks[0] ?? '';
  assert.match(initial, /xychart-beta/);
  assert.match(initial, /title "Initial query latency: p50 \(front\) and p95 \(back\), ms"/);
  assert.match(initial, /x-axis \["pg", "turso 'http'"\]/);
  const bars = [...initial.matchAll(/bar \[([^\]]*)\]/g)].map((m) => m[1]);
  assert.deepEqual(bars, ['6, 2.5', '4, 2']);
  assert.match(initial, /y-axis "milliseconds" 0 --> 8/);
});

test('mermaid: kinds without a successful sample are left out', () => {
  const failed = fakeResult(TARGETS.slice(0, 1), [
    { target: 'pg', kind: 'initial', p50Us: 0, samplesUs: [] },
  ]);
  assert.equal(formatMermaidCharts(failed), '');
});

test('niceCeiling gives a round axis top above the tallest bar', () => {
  assert.equal(niceCeiling(6), 8);
  assert.equal(niceCeiling(0.42), 0.5);
  assert.equal(niceCeiling(95), 150);
  assert.equal(niceCeiling(0), 1);
});

test('markdown export: tables, then charts, then the environment footer last', () => {
  const md = markdownWithCharts(result);
  const tableAt = md.indexOf('| Target |');
  const chartAt = md.indexOf('```mermaid');
  const footerAt = md.lastIndexOf('\n---\n');
  assert.ok(tableAt > 0 && chartAt > tableAt && footerAt > chartAt, 'order: tables < charts < footer');
  assert.match(
    md.slice(footerAt),
    /Measured by dbprobe 0\.1\.0 from this machine on 2025-01-02T03:04:05\.678Z/,
  );
  assert.match(md, /\| pg \| pg \| tcp \|/);
});

test('every export passes the redactor once more', () => {
  const leaky = fakeResult(
    [{ name: 'pg', driver: 'pg', transport: 'tcp' }],
    [{ target: 'pg', kind: 'initial', p50Us: 1000, errors: 1 }],
  );
  const first = leaky.measurements[0];
  assert.ok(first);
  first.firstErrors = [{ class: 'auth', message: 'bad password s3cret-sentinel for user', hint: 'h' }];
  const redactor = new Redactor().addSecret('postgres://u:s3cret-sentinel@h/db');
  for (const format of ['markdown', 'json', 'csv'] as const) {
    const text = exportText(leaky, format, redactor);
    assert.equal(text.includes('s3cret-sentinel'), false, format);
  }
});

test('export file names carry the run time and the extension', () => {
  assert.equal(defaultExportName(result, 'markdown'), 'dbprobe-2025-01-02T03-04-05Z.md');
  assert.equal(defaultExportName(result, 'csv'), 'dbprobe-2025-01-02T03-04-05Z.csv');
});

test("markdown export with the panel's app RTT opens with the panel's verdict lines, the app's first", () => {
  const run = projectedRun([pgLike('tcp-far', 9_000, 250), pgLike('http-near', 4_000, 1_800)]);
  const lines = judgeRun(run, { appRttMs: 30 }).lines;
  assert.ok(
    lines.some((line) => line.includes('at 30 ms RTT')),
    lines.join('\n'),
  );
  const md = exportText(run, 'markdown', new Redactor(), { appRttMs: 30 });
  const bullets = md
    .slice(0, md.indexOf('\n|'))
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
  assert.deepEqual(bullets.slice(0, lines.length), lines);
  // Without it, the "here" lines alone: what the export said before it read the panel's location.
  assert.ok(!exportText(run, 'markdown', new Redactor()).includes('at 30 ms RTT'));
});
