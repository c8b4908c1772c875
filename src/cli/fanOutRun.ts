/**
 * `dbprobe run --fan-out`: one load run shared by this machine (--here) and every --runner, merged
 * into one report with each place's figures beside the merged ones (see places/fanOut.ts).
 */
import type { DriverRegistry } from '../core/driver';
import { runPlan } from '../core/engine';
import { fanOutPlaceOf, fanOutRefusal, runFanOut, type FanOutPlace } from '../places/fanOut';
import { runnerPlace } from '../places/runnerPlace';
import { FORMATTERS } from '../report/formatters';
import type { ExportFormat } from '../shared/formats';
import type { PlanSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import type { RunResult } from '../shared/result';
import { TOOL } from '../shared/version';
import { CliError, EXIT } from './cliError';
import type { CliIo } from './io';
import { emptyKindLines } from './emptyKinds';
import { scheduleShortfallLines } from './scheduleShortfall';
import { failedKinds, reportFailures } from './probe';
import { createProgress } from './progress';
import { runSummaryLines } from './stderrSummary';
import { tlsWarningLines } from './tlsWarnings';
import { checkRunners } from './runnerPreflight';
import { writeReport } from './reportOutput';

export interface FanOutCliOptions {
  plan: PlanSpec;
  /** This machine takes a share too. */
  here: boolean;
  runners: string[];
  token: string;
  registry: DriverRegistry;
  redactor: Redactor;
  /** Connection strings for this machine's share, by target name. */
  connections: Map<string, string>;
  format: ExportFormat;
  out?: string;
  quiet?: boolean;
  finish?: (results: RunResult[], code: number) => number;
}

export const LOCAL_FAN_OUT_LABEL = 'this machine';

export function localFanOutPlace(
  registry: DriverRegistry,
  redactor: Redactor,
  connections: Map<string, string>,
): FanOutPlace {
  return {
    label: LOCAL_FAN_OUT_LABEL,
    run: async (plan, signal, onEvent) => ({
      label: LOCAL_FAN_OUT_LABEL,
      result: await runPlan(plan, {
        registry,
        redactor,
        tool: TOOL,
        signal,
        resolveConnection: async (target) => connections.get(target.name) ?? '',
        onEvent,
      }),
    }),
  };
}

export async function fanOutAndReport(options: FanOutCliOptions, io: CliIo): Promise<number> {
  const places: FanOutPlace[] = [
    ...(options.here ? [localFanOutPlace(options.registry, options.redactor, options.connections)] : []),
    ...options.runners.map((url, index) =>
      fanOutPlaceOf(
        runnerPlace({
          url,
          token: options.token,
          label: options.redactor.nameOf(url, '--runner', index),
          urlName: options.redactor.nameOf(url, '--runner', index),
        }),
        {
          redactor: options.redactor,
          // Runners resolve connections from their own environment.
          resolveConnection: async () => '',
        },
      ),
    ),
  ];
  const refusal = fanOutRefusal(options.plan, places.length);
  if (refusal) throw new CliError(refusal);
  await checkRunners(options.runners, options.token, options.plan, options.redactor, io.signal);
  const progress = options.quiet ? [] : places.map((p) => createProgress(io.stderr, p.label));
  const outcome = await runFanOut(options.plan, places, {
    signal: io.signal,
    ...(options.quiet ? {} : { onEvent: (index, event) => progress[index]?.(event) }),
  });
  let code: number = EXIT.ok;
  for (const part of outcome.parts) {
    if (!part.failure) continue;
    io.stderr.write(
      `dbprobe: ${part.label}: ${options.redactor.redact(part.failure)}${part.result ? '; the report holds what arrived' : '; the merged report lacks its share'}\n`,
    );
    code = EXIT.targetFailed;
  }
  const merged = outcome.merged;
  if (!merged) return Math.max(code, io.signal.aborted ? EXIT.cancelled : EXIT.targetFailed);
  if (!options.quiet)
    for (const line of runSummaryLines(merged)) io.stderr.write(`${options.redactor.redact(line)}\n`);
  const report = options.redactor.redact(FORMATTERS[options.format](merged));
  code = Math.max(code, writeReport(report, options.format, options.out, io));
  if (merged.state !== 'completed') {
    io.stderr.write(
      `dbprobe: fan-out ${merged.state === 'cancelled' ? 'cancelled' : 'stopped'}: ${options.redactor.redact(merged.stopReason)}; the report holds what was measured so far\n`,
    );
    code = Math.max(code, io.signal.aborted ? EXIT.cancelled : EXIT.targetFailed);
  }
  for (const line of tlsWarningLines(merged)) io.stderr.write(`${options.redactor.redact(line)}\n`);
  // A kind that failed or measured nothing fails the run, as in a run from one place.
  reportFailures(merged, io, undefined);
  const empty = [...emptyKindLines(merged), ...scheduleShortfallLines(merged)];
  for (const line of empty) io.stderr.write(`${options.redactor.redact(line)}\n`);
  if (failedKinds(merged).length > 0 || empty.length > 0) code = Math.max(code, EXIT.targetFailed);
  return options.finish ? options.finish([merged], code) : code;
}
