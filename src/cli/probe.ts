/** Runs a plan for the CLI in one or more places: progress, report, exit code. Shared by `run` and `demo`. */
import type { ConnectionResolver } from '../core/slot';
import { appRttLeftOutLine } from './appRttLeftOut';
import { failureOf, resultOf } from '../places/outcome';
import type { Place } from '../places/place';
import { runEverywhere } from '../places/runEverywhere';
import { formatAcross } from '../report/across';
import type { ReportOptions } from '../report/reportOptions';
import { FORMATTERS } from '../report/formatters';
import type { ProbeEvent } from '../shared/events';
import type { ProbeFailure } from '../shared/errors';
import type { ExportFormat } from '../shared/formats';
import type { Redactor } from '../shared/redact';
import type { PlanSpec } from '../shared/plan';
import type { RunResult } from '../shared/result';
import { EXIT } from './cliError';
import type { CliIo } from './io';
import { emptyKindLines } from './emptyKinds';
import { scheduleShortfallLines } from './scheduleShortfall';
import { createProgress } from './progress';
import { runSummaryLines } from './stderrSummary';
import { driverPackageNotes } from '../shared/driverPackages';
import { tlsWarningLines } from './tlsWarnings';
import { writeReport } from './reportOutput';

export const CLI_LOCAL_DESCRIPTION = 'the dbprobe process on this machine';

export interface ProbeOptions {
  /** Every place runs the whole plan (the CLI has no per-runner share). */
  places: Place[];
  plan: PlanSpec;
  /** Connection strings for this machine; runners resolve theirs from their own environment. */
  resolveConnection: ConnectionResolver;
  redactor: Redactor;
  format: ExportFormat;
  /** Checked by the command with its other outputs (outputPlan.ts) before this runs. */
  out?: string;
  quiet?: boolean;
  /** How the report reads (the projection's RTTs). */
  report?: ReportOptions;
  /** Runs after the report with every result and the exit code so far; returns the final code (CI gates). */
  finish?: (results: RunResult[], code: number) => number;
}

export async function probeAndReport(options: ProbeOptions, io: CliIo): Promise<number> {
  const { places, plan } = options;
  const several = places.length > 1;
  const progress = options.quiet
    ? []
    : places.map((place) => createProgress(io.stderr, several ? place.label : undefined));
  const outcomes = await runEverywhere(
    places.map((place) => ({ place, plan })),
    {
      resolveConnection: options.resolveConnection,
      redactor: options.redactor,
      signal: io.signal,
      ...(options.quiet ? {} : { onEvent: (index: number, event: ProbeEvent) => progress[index]?.(event) }),
    },
  );
  const results = outcomes.flatMap((o) => resultOf(o) ?? []);
  let code: number = EXIT.ok;
  // The answer first: each result's verdict lines, then its figures, before anything else is said.
  if (!options.quiet) {
    const judge = options.report?.appRttMs !== undefined ? { appRttMs: options.report.appRttMs } : {};
    outcomes.forEach((outcome, i) => {
      const result = resultOf(outcome);
      if (!result) return;
      for (const line of runSummaryLines(result, judge, several ? places[i]?.label : undefined))
        io.stderr.write(`${options.redactor.redact(line)}\n`);
    });
  }
  if (results.length > 0) {
    const text =
      results.length === 1 && !several
        ? FORMATTERS[options.format](results[0]!, options.report)
        : formatAcross(options.format, results, options.report);
    const report = options.redactor.redact(text);
    code = writeReport(report, options.format, options.out, io);
  }
  outcomes.forEach((outcome, i) => {
    const label = places[i]?.label ?? '';
    const failure = failureOf(outcome);
    const result = resultOf(outcome);
    if (failure) {
      const unexpected = failure.class === 'internal' ? 'unexpected error: ' : '';
      io.stderr.write(
        `dbprobe: ${unexpected}${options.redactor.redact(failure.message)}${result ? '; the report holds what arrived' : ''}\n`,
      );
      code = Math.max(code, failure.class === 'cancelled' ? EXIT.cancelled : EXIT.targetFailed);
    }
    if (!result) return;
    for (const line of tlsWarningLines(result, several ? ` from ${label}` : ''))
      io.stderr.write(`${options.redactor.redact(line)}\n`);
    const leftOut = appRttLeftOutLine(result, options.report?.appRttMs);
    if (leftOut) io.stderr.write(`${options.redactor.redact(leftOut)}\n`);
    for (const note of driverPackageNotes(result.environment))
      io.stderr.write(`dbprobe: ${options.redactor.redact(note)}\n`);
    reportFailures(result, io, several ? label : undefined);
    if (result.state !== 'completed' && !failure) {
      io.stderr.write(
        `dbprobe: run ${result.state === 'cancelled' ? 'cancelled' : 'stopped'}: ${stopWords(result, io)}; the report holds what was measured so far\n`,
      );
      code = Math.max(
        code,
        result.state === 'cancelled' && io.signal.aborted ? EXIT.cancelled : EXIT.targetFailed,
      );
    } else if (failedKinds(result).length > 0) {
      code = Math.max(code, EXIT.targetFailed);
    }
    const empty = [
      ...emptyKindLines(result, several ? ` from ${label}` : ''),
      ...scheduleShortfallLines(result, several ? ` from ${label}` : ''),
    ];
    for (const line of empty) io.stderr.write(`${options.redactor.redact(line)}\n`);
    if (empty.length > 0) code = Math.max(code, EXIT.targetFailed);
  });
  return options.finish ? options.finish(results, code) : code;
}

/** A run a signal cancelled says which signal (main.ts aborts with it), not "by the user". */
function stopWords(result: RunResult, io: CliIo): string | undefined {
  const reason: unknown = io.signal.reason;
  return result.state === 'cancelled' && typeof reason === 'string' ? reason : result.stopReason;
}

/**
 * Every kind asked of a target that got no successful sample (its cold preparation failed, every
 * sample failed), as "target kind": one failed kind fails the run, whatever the others measured.
 */
export function failedKinds(result: RunResult): string[] {
  return result.measurements.filter((m) => m.failed).map((m) => `${m.target} ${m.kind}`);
}

/**
 * One line per target that failed or had errors: what happened, the class, what to do. A target that
 * measured some samples before errors (a server that closed mid-run) keeps them, and says so.
 */
export function reportFailures(result: RunResult, io: CliIo, place: string | undefined): void {
  const where = place ? ` from ${place}` : '';
  for (const target of result.targets) {
    const own = result.measurements.filter((m) => m.target === target.name);
    const failed = own.filter((m) => m.failed);
    const failedFirst = failed[0]?.firstErrors[0];
    if (failedFirst) {
      const kinds = failed.map((m) => m.kind).join(', ');
      io.stderr.write(
        `dbprobe: target "${target.name}" (${target.driver}) failed${where} [${kinds}]: ${describeFailure(failedFirst)}\n`,
      );
      continue;
    }
    const withErrors = own.filter((m) => m.stats.errors > 0 && m.firstErrors[0]);
    const first = withErrors[0]?.firstErrors[0];
    if (!first) continue;
    const errors = withErrors.reduce((sum, m) => sum + m.stats.errors, 0);
    const measured = withErrors.reduce((sum, m) => sum + m.stats.count, 0);
    const kinds = withErrors.map((m) => m.kind).join(', ');
    io.stderr.write(
      `dbprobe: target "${target.name}" (${target.driver}) had ${errors} failed sample${errors === 1 ? '' : 's'}${where} [${kinds}] beside ${measured} measured (the report keeps them): ${describeFailure(first)}\n`,
    );
  }
}

function describeFailure(failure: ProbeFailure): string {
  return `${failure.class}: ${failure.message.replace(/\.+$/, '')}. ${failure.hint}`;
}
