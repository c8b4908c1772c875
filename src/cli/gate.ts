/**
 * What `dbprobe run` does after the report when it gates CI: one stderr line per failed threshold,
 * the Markdown report and the verdicts appended to the job summary (`--summary FILE`, or
 * GITHUB_STEP_SUMMARY when GitHub Actions sets it), and exit code 3 when a threshold failed.
 */
import * as path from 'node:path';
import { formatMarkdownAcross } from '../report/across';
import { formatMarkdown } from '../report/markdown';
import { placeOf } from '../report/placeName';
import type { ReportOptions } from '../report/reportOptions';
import { layeredName } from '../shared/layerCatalog';
import type { PlanSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import type { RunResult } from '../shared/result';
import { EXIT } from './cliError';
import type { OutputFile } from './outputPlan';
import { writeOutputFile } from './reportOutput';
import type { CliIo } from './io';
import { writeVerdicts } from './verdictsFile';
import {
  evaluateThresholds,
  thresholdHeadline,
  verdictText,
  type Threshold,
  type Verdict,
} from '../shared/judgement/thresholdVerdicts';
import { checkThresholdNames, checkThresholdSupport, parseThresholds, verdictsMarkdown } from './thresholds';

/** The flags, for a command's parseArgs options. */
export const GATE_FLAGS = {
  threshold: { type: 'string', multiple: true },
  summary: { type: 'string' },
  verdicts: { type: 'string' },
} as const;

type GateFlags = { threshold?: string[]; summary?: string; verdicts?: string };

/**
 * The files the gate writes: the job summary (--summary, else GITHUB_STEP_SUMMARY when GitHub
 * Actions sets it) and --verdicts. The command checks them with its other outputs (outputPlan.ts)
 * before anything is probed: a summary that cannot be written must stop the run before it measures.
 */
export function gateOutputFiles(
  flags: GateFlags,
  io: CliIo,
): { summary?: OutputFile; verdicts?: OutputFile } {
  const summary = flags.summary
    ? { flag: '--summary', file: path.resolve(io.cwd, flags.summary) }
    : io.env.GITHUB_STEP_SUMMARY
      ? { flag: 'GITHUB_STEP_SUMMARY', file: io.env.GITHUB_STEP_SUMMARY }
      : undefined;
  const verdicts = flags.verdicts
    ? { flag: '--verdicts', file: path.resolve(io.cwd, flags.verdicts) }
    : undefined;
  return { summary, verdicts };
}

/**
 * Reads the gate flags against the plan (usage errors before anything is probed) and returns the
 * `finish` step for probeAndReport. Its files are the caller's to check (gateOutputFiles).
 */
export function prepareGate(
  flags: GateFlags,
  plan: Pick<PlanSpec, 'targets' | 'kinds' | 'iterations' | 'load' | 'schedule'>,
  redactor: Redactor,
  io: CliIo,
  report: ReportOptions = {},
): (results: RunResult[], code: number) => number {
  const thresholds = parseThresholds(flags.threshold ?? []);
  checkThresholdNames(thresholds, probedNames(plan.targets), plan.kinds, plan);
  checkThresholdSupport(thresholds, plan);
  const { summary, verdicts } = gateOutputFiles(flags, io);
  return (results, code) =>
    applyGate(
      {
        thresholds,
        redactor,
        report,
        summary: summary?.file,
        verdicts: verdicts?.file,
      },
      results,
      code,
      io,
    );
}

/**
 * Every name the run measures under: a target with an ORM layer is measured twice, raw and as its
 * twin `name · layer` (src/core/layerTwins.ts), and a threshold may name either.
 */
function probedNames(targets: PlanSpec['targets']): string[] {
  return targets.flatMap((t) =>
    t.orm !== undefined && t.rawTwin === undefined ? [t.name, layeredName(t.name, t.orm)] : [t.name],
  );
}

export interface GateOptions {
  thresholds: Threshold[];
  /** The job summary file to append to, if any. */
  summary?: string;
  /** The file to write the verdicts to as JSON (`--verdicts`), if any. */
  verdicts?: string;
  redactor: Redactor;
  /** How the summary's Markdown reads (--rtt), as the report's own. */
  report?: ReportOptions;
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

  const verdictsWritten =
    !options.verdicts || writeVerdicts(options.verdicts, verdicts, options.redactor, io);
  const summaryWritten = !options.summary || appendSummary(options, results, verdicts, io);

  // A target that failed outright (1) or a cancel (130) says more than a threshold: those codes stand.
  const gated = failed.length > 0 && code === EXIT.ok ? EXIT.thresholdFailed : code;
  // An output asked for and not written is a failed output, like a report that could not be written.
  return verdictsWritten && summaryWritten ? gated : Math.max(gated, EXIT.targetFailed);
}

/** Appends the job summary; false (with a line saying why) when it could not be written. */
function appendSummary(
  options: GateOptions,
  results: RunResult[],
  verdicts: readonly Verdict[],
  io: CliIo,
): boolean {
  const section = verdicts.length > 0 || options.thresholds.length > 0 ? verdictsMarkdown(verdicts) : '';
  // The thresholds' verdict joins the run's own at the top; their table stays below the report.
  const gateLines = options.thresholds.length > 0 ? [thresholdHeadline(verdicts)] : [];
  const report =
    results.length === 0
      ? ''
      : results.length === 1
        ? formatMarkdown(results[0]!, { ...options.report, gateLines })
        : formatMarkdownAcross(results, { ...options.report, gateLines });
  // The run and its verdicts stand (the report is on stdout or in --out); the summary is missing.
  return writeOutputFile(
    options.summary!,
    options.redactor.redact(`${report}\n${section}\n`),
    'the job summary (--summary or GITHUB_STEP_SUMMARY)',
    io,
    'append',
  );
}
