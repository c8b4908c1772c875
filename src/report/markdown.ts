/**
 * The Markdown report of one run: the verdict first, then per kind the statistics table (the avg,
 * p90, p95, p99, max table of the blog post "What's the fastest serverless database provider?",
 * with p50, stddev and errors added), phases, cold starts, load, expected latency, projections,
 * differences, errors and how it was measured.
 */
import { PROBE_KINDS, type ProbeKind } from '../shared/plan';
import type { RunResult } from '../shared/result';
import { tlsNotVerifiedSentence, unverifiedTargets } from '../shared/tlsNotVerified';
import { ms } from '../shared/units';
import { inlineText, markdownTable, type Column } from './markdownTable';
import { differencesSection } from './differencesSection';
import { coldTable } from './coldTable';
import { expectedLines, type ExpectedRow } from '../shared/judgement/expected';
import { loadSection, scheduleSection } from './loadTables';
import { phasesSection } from './phasesTable';
import { splitSection } from './splitTable';
import { rowsSection } from './rowsTable';
import { placeOf } from './placeName';
import { projectionSection } from './projectionTable';
import type { ReportOptions } from './reportOptions';
import { statsTable } from './statsTable';
import { verdictMarkdown } from './verdictLines';
import { driverPackageLabels } from '../shared/driverPackages';
import { judgeOptionsOf, judgeRun } from '../shared/judgement/judgeRun';
import { samplesPerKind } from '../shared/judgement/shortenedCount';

const KIND_TITLES: Record<ProbeKind, string> = {
  initial: 'Initial query (new connection + first query)',
  subsequent: 'Subsequent query (warm connection)',
  cold: 'Cold query (new connection + first query to a suspended database)',
  schedule: 'Request schedule (per-request totals)',
  load: 'Load (every query of every level)',
};

const EXPECTED_QUERIES = 5;

export function formatMarkdown(result: RunResult, options: ReportOptions = {}): string {
  const lines: string[] = ['# Database latency', ''];
  // The answer first: the verdict lines before any table.
  const judgement = judgeRun(result, judgeOptionsOf(options));
  lines.push(...verdictMarkdown(judgement, options.gateLines));
  const sampled = result.plan.kinds.some((k) => k !== 'load' && k !== 'schedule');
  lines.push(
    sampled
      ? `All times in milliseconds (microsecond precision). ${samplesPerKind(result)} samples per target and kind after ${result.plan.warmup} warm-up samples, targets ${result.plan.order}.`
      : 'All times in milliseconds (microsecond precision).',
    '',
  );
  if (result.state !== 'completed') lines.push(`> **Partial run:** ${result.stopReason}.`, '');
  if (result.client.bottleneck)
    lines.push(
      `> **Client warning:** ${result.client.note ?? 'the client may have limited these figures.'}`,
      '',
    );

  for (const target of unverifiedTargets(result.targets))
    lines.push(`> **${inlineText(tlsNotVerifiedSentence(target).replace(/: /, ':** '))}`, '');

  for (const kind of PROBE_KINDS) {
    const measurements = result.measurements.filter((m) => m.kind === kind);
    if (measurements.length === 0) continue;
    const service = measurements.flatMap((m) => {
      const stats = m.load?.service ?? m.schedule?.serviceTotals;
      return stats ? [{ ...m, stats }] : [];
    });
    // A fixed-rate (open) schedule's headline is timed from each intended start; its service time beside.
    const title = service.length > 0 ? `${KIND_TITLES[kind]}, from the intended start` : KIND_TITLES[kind];
    lines.push(`## ${title}`, '', ...statsTable(measurements, result.targets), '');
    if (service.length > 0)
      lines.push(
        `Timed from each ${kind === 'load' ? 'query' : 'request'}'s intended start (coordinated omission corrected): the wait of a caller arriving on schedule. Service time (uncorrected: from its issue to its answer) beside it:`,
        '',
        ...statsTable(service, result.targets),
        '',
      );
  }

  // Initial samples only: cold ones have their own table below, set against the hot connect after each.
  lines.push(...phasesSection(result.measurements));
  lines.push(...splitSection(result, options.appRttMs));
  lines.push(...rowsSection(result));

  const cold = coldTable(result.measurements);
  if (cold.length > 0) lines.push(...cold, '');
  lines.push(...scheduleSection(result.measurements), ...loadSection(result.measurements));

  // The sections that set targets against each other show the verdict's classes only: the targets
  // apart are said once, here (judgement/sectionScope.ts).
  const { scope, requestCrossovers } = judgement;
  if (scope.apartLine) lines.push(`_${inlineText(scope.apartLine)}_`, '');
  const shown = (target: string) => !scope.apart.includes(target);
  const expected = expectedLines(result, EXPECTED_QUERIES).filter((row) => shown(row.target));
  if (expected.length > 0) {
    lines.push(
      `## Expected latency for 1..${EXPECTED_QUERIES} sequential queries`,
      '',
      'One new connection, then queries one after another: initial p50 + (n - 1) x subsequent p50.',
      '',
      ...markdownTable(expectedColumns(), expected),
      '',
    );
    // The judgement's crossovers, decided by the rule its request ranking uses (1..maxQueries).
    const claims = [...requestCrossovers.crossovers.map((c) => c.text), ...requestCrossovers.withinNoise];
    const sentence = (c: string) => (c.endsWith('.') ? c : `${c}.`);
    if (claims.length > 0) lines.push(...claims.map((c) => `- ${inlineText(sentence(c))}`), '');
  }

  lines.push(
    ...projectionSection(result, {
      ...(options.rttsMs ? { rttsMs: options.rttsMs } : {}),
      ...(scope.apart.length > 0 ? { apart: scope.apart } : {}),
    }),
  );

  lines.push(...differencesSection(result));

  const failures = result.measurements.filter((m) => m.firstErrors.length > 0);
  if (failures.length > 0) {
    lines.push('## Errors', '');
    for (const m of failures) {
      const first = m.firstErrors[0];
      if (!first) continue;
      const stop = m.stoppedEarly ? ` (${m.stoppedEarly})` : '';
      lines.push(
        `- **${inlineText(m.target)}** ${m.kind}: ${first.class}: ${inlineText(first.message)}${stop}. ${first.hint}`,
      );
    }
    lines.push('');
  }

  lines.push(footer(result));
  return lines.join('\n') + '\n';
}

function expectedColumns(): Column<ExpectedRow>[] {
  return [
    { header: 'Target', cell: (row) => row.target },
    { header: 'Initial', align: 'right', cell: (row) => ms(row.initialUs) },
    { header: 'Subsequent', align: 'right', cell: (row) => ms(row.subsequentUs) },
    ...Array.from({ length: EXPECTED_QUERIES }, (_, k): Column<ExpectedRow> => ({
      header: k === 0 ? '1 query' : `${k + 1}`,
      align: 'right',
      cell: (row) => {
        const us = row.totalsUs[k];
        return us === undefined ? '-' : ms(us);
      },
    })),
  ];
}

function footer(result: RunResult): string {
  const env = result.environment;
  // Two drivers can share a package (neon-http and neon-ws): name each package once.
  const drivers = driverPackageLabels(env).join(', ');
  const where = placeOf(result);
  return [
    '---',
    `<sub>Measured by ${env.tool.name} ${env.tool.version} from ${where} on ${result.startedAt}: Node ${env.node}, ${env.os.platform} ${env.os.release} ${env.os.arch}, ${env.cpus.count} x ${env.cpus.model}; clock ${env.clock.name}; ${drivers}. Percentiles from HDR histograms; warm-up excluded.</sub>`,
  ].join('\n');
}
