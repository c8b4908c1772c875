/** Runs a plan for the CLI: engine + progress + report + exit code, shared by `run` and `demo`. */
import { writeFileSync } from 'node:fs';
import { runPlan } from '../core/engine';
import type { DriverRegistry } from '../core/driver';
import type { PlanSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import type { RunResult } from '../shared/result';
import { TOOL } from '../shared/version';
import { FORMATTERS, type FormatName } from '../report/formatters';
import { EXIT } from './cliError';
import type { CliIo } from './io';
import { createProgress } from './progress';

export interface ProbeOptions {
  plan: PlanSpec;
  registry: DriverRegistry;
  redactor: Redactor;
  connections: Map<string, string>;
  format: FormatName;
  out?: string;
  quiet?: boolean;
}

export async function probeAndReport(options: ProbeOptions, io: CliIo): Promise<number> {
  const progress = options.quiet ? undefined : createProgress(io.stderr);
  const result = await runPlan(options.plan, {
    registry: options.registry,
    redactor: options.redactor,
    tool: TOOL,
    signal: io.signal,
    resolveConnection: async (target) => options.connections.get(target.name) ?? '',
    ...(progress ? { onEvent: progress } : {}),
  });
  const report = options.redactor.redact(FORMATTERS[options.format](result));
  if (options.out) {
    writeFileSync(options.out, report);
    io.stderr.write(`wrote ${options.format} report to ${options.out}\n`);
  } else {
    io.stdout.write(report);
  }
  reportFailures(result, io);
  if (result.state !== 'completed') {
    io.stderr.write(
      `dbprobe: run ${result.state === 'cancelled' ? 'cancelled' : 'stopped'}: ${result.stopReason ?? result.state}; the report holds what was measured so far\n`,
    );
    return result.state === 'cancelled' ? EXIT.cancelled : EXIT.targetFailed;
  }
  return failedTargets(result).length > 0 ? EXIT.targetFailed : EXIT.ok;
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
function reportFailures(result: RunResult, io: CliIo): void {
  for (const target of result.targets) {
    const failed = result.measurements.filter((m) => m.target === target.name && m.failed);
    const first = failed[0]?.firstErrors[0];
    if (!first) continue;
    const kinds = failed.map((m) => m.kind).join(', ');
    io.stderr.write(
      `dbprobe: target "${target.name}" (${target.driver}) failed [${kinds}]: ${first.class}: ${first.message.replace(/\.+$/, '')}. ${first.hint}\n`,
    );
  }
}
