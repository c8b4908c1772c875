/** Runs a plan for the CLI in one or more places: progress, report, exit code. Shared by `run` and `demo`. */
import { writeFileSync } from 'node:fs';
import { formatAcross } from '../report/across';
import { FORMATTERS } from '../report/formatters';
import type { ProbeFailure } from '../shared/errors';
import type { ExportFormat } from '../shared/formats';
import type { Redactor } from '../shared/redact';
import type { RunResult } from '../shared/result';
import { EXIT } from './cliError';
import type { CliIo } from './io';
import type { Location } from './locations';
import { createProgress } from './progress';

export interface ProbeOptions {
  locations: Location[];
  redactor: Redactor;
  format: ExportFormat;
  out?: string;
  quiet?: boolean;
}

export async function probeAndReport(options: ProbeOptions, io: CliIo): Promise<number> {
  const several = options.locations.length > 1;
  const outcomes = await Promise.all(
    options.locations.map((location) => {
      const progress = options.quiet
        ? undefined
        : createProgress(io.stderr, several ? location.label : undefined);
      return location.run(progress, io.signal);
    }),
  );
  const results = outcomes.flatMap((o) => (o.result ? [o.result] : []));
  if (results.length > 0) {
    const text =
      results.length === 1 && !several
        ? FORMATTERS[options.format](results[0]!)
        : formatAcross(options.format, results);
    const report = options.redactor.redact(text);
    if (options.out) {
      writeFileSync(options.out, report);
      io.stderr.write(`wrote ${options.format} report to ${options.out}\n`);
    } else {
      io.stdout.write(report);
    }
  }
  let code: number = EXIT.ok;
  outcomes.forEach((outcome, i) => {
    const label = options.locations[i]?.label ?? '';
    if (outcome.error) {
      io.stderr.write(
        `dbprobe: ${options.redactor.redact(outcome.error)}${outcome.result ? '; the report holds what arrived' : ''}\n`,
      );
      code = EXIT.targetFailed;
    }
    const result = outcome.result;
    if (!result) return;
    reportFailures(result, io, several ? label : undefined);
    if (result.state !== 'completed' && !outcome.error) {
      io.stderr.write(
        `dbprobe: run ${result.state === 'cancelled' ? 'cancelled' : 'stopped'}: ${result.stopReason}; the report holds what was measured so far\n`,
      );
      code = Math.max(
        code,
        result.state === 'cancelled' && io.signal.aborted ? EXIT.cancelled : EXIT.targetFailed,
      );
    } else if (failedTargets(result).length > 0) {
      code = Math.max(code, EXIT.targetFailed);
    }
  });
  return code;
}

/** Targets where no kind produced a single successful sample. */
export function failedTargets(result: RunResult): string[] {
  return result.targets
    .map((t) => t.name)
    .filter((name) => {
      const own = result.measurements.filter((m) => m.target === name);
      return own.length > 0 && own.every((m) => m.failed);
    });
}

/**
 * One line per target that failed or had errors: what happened, the class, what to do. A target that
 * measured some samples before errors (a server that closed mid-run) keeps them, and says so.
 */
function reportFailures(result: RunResult, io: CliIo, place: string | undefined): void {
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
