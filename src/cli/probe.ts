/** Runs a plan for the CLI in one or more places: progress, report, exit code. Shared by `run` and `demo`. */
import { formatAcross } from '../report/across';
import { FORMATTERS, type FormatName } from '../report/formatters';
import type { Redactor } from '../shared/redact';
import type { RunResult } from '../shared/result';
import { EXIT } from './cliError';
import type { CliIo } from './io';
import type { Location } from './locations';
import { createProgress } from './progress';
import { checkOutPath, writeReport } from './reportOutput';

export interface ProbeOptions {
  locations: Location[];
  redactor: Redactor;
  format: FormatName;
  out?: string;
  quiet?: boolean;
}

export async function probeAndReport(options: ProbeOptions, io: CliIo): Promise<number> {
  if (options.out) checkOutPath(options.out);
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
  let code: number = EXIT.ok;
  if (results.length > 0) {
    const text =
      results.length === 1 && !several
        ? FORMATTERS[options.format](results[0]!)
        : formatAcross(options.format, results);
    const report = options.redactor.redact(text);
    code = writeReport(report, options.format, options.out, io);
  }
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
        `dbprobe: run ${result.state === 'cancelled' ? 'cancelled' : 'stopped'}: ${result.stopReason ?? result.state}; the report holds what was measured so far\n`,
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

/** One line per failing target: what happened, the class, what to do. */
function reportFailures(result: RunResult, io: CliIo, place: string | undefined): void {
  for (const target of result.targets) {
    const failed = result.measurements.filter((m) => m.target === target.name && m.failed);
    const first = failed[0]?.firstErrors[0];
    if (!first) continue;
    const kinds = failed.map((m) => m.kind).join(', ');
    const where = place ? ` from ${place}` : '';
    io.stderr.write(
      `dbprobe: target "${target.name}" (${target.driver}) failed${where} [${kinds}]: ${first.class}: ${first.message.replace(/\.+$/, '')}. ${first.hint}\n`,
    );
  }
}
