/**
 * What `dbprobe run` does after the report when it gates CI: one stderr line per failed threshold,
 * the Markdown report and the verdicts appended to the job summary (`--summary FILE`, or
 * GITHUB_STEP_SUMMARY when GitHub Actions sets it), and exit code 3 when a threshold failed.
 */
import { appendFileSync } from 'node:fs';
import * as path from 'node:path';
import { formatMarkdownAcross } from '../report/across';
import { formatMarkdown } from '../report/markdown';
import { placeOf } from '../report/placeName';
import type { PlanSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import type { RunResult } from '../shared/result';
import { EXIT } from './cliError';
import type { CliIo } from './io';
import {
  checkThresholdNames,
  checkThresholdSupport,
  evaluateThresholds,
  parseThresholds,
  verdictsMarkdown,
  verdictText,
  type Threshold,
} from './thresholds';

/** The flags, for a command's parseArgs options. */
export const GATE_FLAGS = {
  threshold: { type: 'string', multiple: true },
  summary: { type: 'string' },
} as const;

/**
 * Reads the gate flags against the plan (usage errors before anything is probed) and returns the
 * `finish` step for probeAndReport.
 */
export function prepareGate(
  flags: { threshold?: string[]; summary?: string },
  plan: Pick<PlanSpec, 'targets' | 'kinds' | 'iterations'>,
  redactor: Redactor,
  io: CliIo,
): (results: RunResult[], code: number) => number {
  const thresholds = parseThresholds(flags.threshold ?? []);
  checkThresholdNames(
    thresholds,
    plan.targets.map((t) => t.name),
    plan.kinds,
  );
  checkThresholdSupport(thresholds, plan);
  const summary = flags.summary
    ? path.resolve(io.cwd, flags.summary)
    : io.env.GITHUB_STEP_SUMMARY || undefined;
  return (results, code) =>
    applyGate({ thresholds, redactor, ...(summary ? { summary } : {}) }, results, code, io);
}

export interface GateOptions {
  thresholds: Threshold[];
  /** The job summary file to append to, if any. */
  summary?: string;
  redactor: Redactor;
}

/** Returns the exit code after the gate: a failed threshold turns a clean run's 0 into 3. */
export function applyGate(options: GateOptions, results: RunResult[], code: number, io: CliIo): number {
  const several = results.length > 1;
  const verdicts = evaluateThresholds(
    options.thresholds,
    results.map((result) => (several ? { result, place: placeOf(result) } : { result })),
  );
  const failed = verdicts.filter((v) => !v.passed);
  for (const v of failed)
    io.stderr.write(`dbprobe: threshold failed: ${options.redactor.redact(verdictText(v))}\n`);
  if (options.thresholds.length > 0 && failed.length === 0)
    io.stderr.write(`dbprobe: thresholds: all ${verdicts.length} checks passed\n`);

  if (options.summary)
    appendSummary(
      options,
      results,
      verdicts.length > 0 || options.thresholds.length > 0 ? verdictsMarkdown(verdicts) : '',
      io,
    );

  // A target that failed outright (1) or a cancel (130) says more than a threshold: those codes stand.
  return failed.length > 0 && code === EXIT.ok ? EXIT.thresholdFailed : code;
}

function appendSummary(options: GateOptions, results: RunResult[], verdicts: string, io: CliIo): void {
  const report =
    results.length === 0
      ? ''
      : results.length === 1
        ? formatMarkdown(results[0]!)
        : formatMarkdownAcross(results);
  try {
    appendFileSync(options.summary!, options.redactor.redact(`${report}\n${verdicts}\n`));
  } catch (error) {
    // The run and its verdicts stand; a summary that cannot be written is worth a line, not a failure.
    io.stderr.write(
      `dbprobe: could not append the job summary to ${options.summary}: ${error instanceof Error ? error.message : String(error)}; check the path (--summary or GITHUB_STEP_SUMMARY)\n`,
    );
  }
}
