/**
 * The gate on change, shared by `dbprobe compare` and `dbprobe run --baseline`: reading a saved run
 * result, the `--min-effect` and `--fail-on-regression` settings, `--strict-host`, and reporting the changes (text on a
 * stream, Markdown appended to the job summary).
 */
import * as path from 'node:path';
import { formatChangesMarkdown, formatChangesText, type ChangeReport } from '../report/changes';
import type { RunResult } from '../shared/result';
import { judgeChanges } from '../shared/judgement/judgeChanges';
import { parseMinEffect, type MinEffect } from '../shared/judgement/minEffect';
import { regressionsBeyond } from '../shared/judgement/runChanges';
import { CliError, EXIT } from './cliError';
import type { CliIo } from './io';
import { readRunFile } from './readRunFile';
import { writeOutputFile } from './reportOutput';

/** The flags `run` takes for the gate on change, for its parseArgs options. */
export const CHANGE_FLAGS = {
  baseline: { type: 'string' },
  'fail-on-regression': { type: 'string' },
  'strict-host': { type: 'boolean' },
  noise: { type: 'string' },
} as const;

export const CHANGE_USAGE = `       --baseline   a saved result (dbprobe run --format json --out BASE.json): after the run, say per target
                    and kind whether p50 and p99 moved, with the 95% bootstrap interval of the change
       --fail-on-regression 10%   with --baseline: exit 3 when an established regression exceeds 10% of BASE
       --strict-host   also fail on a rise the host may explain (a busier client in HEAD: "not attributable")`;

/** "10%" or "10" (percent) as a share (0.1); a usage error otherwise. */
export function parseShare(value: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)%?$/.exec(value.trim());
  const share = match ? Number(match[1]) / 100 : Number.NaN;
  if (!Number.isFinite(share) || share > 10)
    throw new CliError(`${flag} takes a percentage of BASE such as 10% (got "${value}")`);
  return share;
}

export interface ChangeSettings {
  minEffect?: MinEffect;
  failShare?: number;
  strictHost?: boolean;
}

/**
 * `--min-effect 5%` (or an amount, 0.5ms) is the one minimum effect of every verdict; `--noise 5%`,
 * its older name for the change gate, means the same share.
 */
export function minEffectFlag(flags: { 'min-effect'?: string; noise?: string }): MinEffect | undefined {
  if (flags['min-effect'] !== undefined && flags.noise !== undefined)
    throw new CliError('--noise is the older name of --min-effect: give one of them');
  if (flags.noise !== undefined) return { share: parseShare(flags.noise, '--noise') };
  if (flags['min-effect'] === undefined) return undefined;
  const parsed = parseMinEffect(flags['min-effect']);
  if (typeof parsed === 'string') throw new CliError(`--min-effect ${parsed}`);
  return parsed;
}

export function changeSettings(flags: {
  noise?: string;
  'min-effect'?: string;
  'fail-on-regression'?: string;
  'strict-host'?: boolean;
}): ChangeSettings {
  const minEffect = minEffectFlag(flags);
  return {
    ...(minEffect ? { minEffect } : {}),
    ...(flags['fail-on-regression'] !== undefined
      ? { failShare: parseShare(flags['fail-on-regression'], '--fail-on-regression') }
      : {}),
    ...(flags['strict-host'] ? { strictHost: true } : {}),
  };
}

export function buildChangeReport(base: RunResult, head: RunResult, asked: ChangeSettings): ChangeReport {
  // HEAD's own minimum effect (its run's --min-effect) unless this command set one.
  const minEffect = asked.minEffect ?? head.plan.minEffect;
  const settings: ChangeSettings = { ...asked, ...(minEffect ? { minEffect } : {}) };
  const judgement = judgeChanges(base, head, settings.minEffect ? { minEffect: settings.minEffect } : {});
  const changes = judgement.changes;
  return {
    base,
    head,
    judgement,
    changes,
    ...(settings.minEffect ? { minEffect: settings.minEffect } : {}),
    ...(settings.strictHost ? { strictHost: true } : {}),
    failShare: settings.failShare,
    failing:
      settings.failShare === undefined
        ? []
        : regressionsBeyond(changes, settings.failShare, { strictHost: settings.strictHost === true }),
  };
}

/**
 * Appends the Markdown section to the job summary; a summary that cannot be written costs a line
 * and returns false (the caller's exit code says so), not the rest of the outputs.
 */
export function appendChangeSummary(report: ChangeReport, summary: string | undefined, io: CliIo): boolean {
  if (!summary) return true;
  return writeOutputFile(
    summary,
    `${formatChangesMarkdown(report)}\n`,
    'the change report (the job summary: --summary or GITHUB_STEP_SUMMARY)',
    io,
    'append',
  );
}

/** The job summary file: --summary, else GitHub's GITHUB_STEP_SUMMARY when set. */
export function summaryPath(flag: string | undefined, io: CliIo): string | undefined {
  return flag ? path.resolve(io.cwd, flag) : io.env.GITHUB_STEP_SUMMARY || undefined;
}

/**
 * For `run --baseline`: reads BASE before anything is probed (a bad file is a usage error, nothing
 * measured yet) and returns the step that runs after the report: the changes on stderr (stdout holds
 * the report), the Markdown in the job summary, and exit 3 when --fail-on-regression fails.
 */
export function prepareBaseline(
  flags: {
    baseline?: string;
    noise?: string;
    'min-effect'?: string;
    'fail-on-regression'?: string;
    'strict-host'?: boolean;
    summary?: string;
  },
  io: CliIo,
): ((results: RunResult[], code: number) => number) | undefined {
  const settings = changeSettings(flags);
  if (!flags.baseline) {
    if (flags['fail-on-regression'] !== undefined || flags.noise !== undefined || flags['strict-host'])
      throw new CliError(
        '--fail-on-regression, --strict-host and --noise judge a change against a saved run: add --baseline BASE.json (a result saved with --format json --out)',
      );
    return undefined;
  }
  const base = readRunFile(path.resolve(io.cwd, flags.baseline), '--baseline');
  const summary = summaryPath(flags.summary, io);
  return (results, code) => {
    const head = results[0];
    if (!head) return code;
    if (results.length > 1)
      io.stderr.write(
        `dbprobe: --baseline compares the first place's result (${head.environment.location.label}) only\n`,
      );
    const report = buildChangeReport(base, head, settings);
    io.stderr.write(formatChangesText(report));
    const written = appendChangeSummary(report, summary, io);
    if (!report.judgement.comparable) {
      io.stderr.write(
        `dbprobe: --baseline ${flags.baseline} and this run are not comparable (${report.judgement.reason}); a gate that compared nothing is an error, not a pass: pass a baseline saved from the same targets, kinds, workloads and load levels\n`,
      );
      return Math.max(code, EXIT.usage);
    }
    const gated = report.failing.length > 0 && code === EXIT.ok ? EXIT.thresholdFailed : code;
    return written ? gated : Math.max(gated, EXIT.targetFailed);
  };
}
