/**
 * The gate on change, shared by `dbprobe compare` and `dbprobe run --baseline`: reading a saved run
 * result, the `--noise` and `--fail-on-regression` shares, and reporting the changes (text on a
 * stream, Markdown appended to the job summary).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { formatChangesMarkdown, formatChangesText, type ChangeReport } from '../report/changes';
import { RESULT_SCHEMA, type RunResult } from '../shared/result';
import { judgeChanges } from '../shared/judgement/judgeChanges';
import { DEFAULT_NOISE_SHARE, regressionsBeyond } from '../shared/runChanges';
import { CliError, EXIT } from './cliError';
import type { CliIo } from './io';

/** The flags `run` takes for the gate on change, for its parseArgs options. */
export const CHANGE_FLAGS = {
  baseline: { type: 'string' },
  'fail-on-regression': { type: 'string' },
  noise: { type: 'string' },
} as const;

export const CHANGE_USAGE = `       --baseline   a saved result (dbprobe run --format json --out BASE.json): after the run, say per target
                    and kind whether p50 and p99 moved beyond noise, with the 95% bootstrap interval of the change
       --fail-on-regression 10%   with --baseline: exit 3 when a regression beyond noise exceeds 10% of BASE
       --noise 5%   the band within which a change is noise (default ${DEFAULT_NOISE_SHARE * 100}% of BASE)`;

/** A saved run result: one `dbprobe.run/v1` document, or a JSON array holding exactly one. */
export function readRunFile(file: string, what: string): RunResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `${what} ${file} cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? String(error))}); save a run with \`dbprobe run --format json --out FILE\` and pass that file`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(
      `${what} ${file} is not JSON; pass a result saved with \`dbprobe run --format json --out FILE\` (Markdown and CSV reports hold no samples to compare)`,
    );
  }
  if (Array.isArray(parsed)) {
    if (parsed.length !== 1)
      throw new CliError(
        `${what} ${file} holds ${parsed.length} results (one per place); compare one place's run: save it from a run with one place (no --runner, or one --runner without --here)`,
      );
    parsed = parsed[0];
  }
  if (!isRunResult(parsed))
    throw new CliError(
      `${what} ${file} is not a dbprobe run result (no "schema": "${RESULT_SCHEMA}" with measurements); pass a result saved with \`dbprobe run --format json --out FILE\``,
    );
  return parsed;
}

function isRunResult(value: unknown): value is RunResult {
  const v = value as Partial<RunResult> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.schema === RESULT_SCHEMA &&
    typeof v.id === 'string' &&
    Array.isArray(v.measurements) &&
    v.measurements.every((m) => Array.isArray(m?.samples?.values) && typeof m.stats === 'object')
  );
}

/** "10%" or "10" (percent) as a share (0.1); a usage error otherwise. */
export function parseShare(value: string, flag: string): number {
  const match = /^(\d+(?:\.\d+)?)%?$/.exec(value.trim());
  const share = match ? Number(match[1]) / 100 : Number.NaN;
  if (!Number.isFinite(share) || share > 10)
    throw new CliError(`${flag} takes a percentage of BASE such as 10% (got "${value}")`);
  return share;
}

export interface ChangeSettings {
  noiseShare: number;
  failShare?: number;
}

export function changeSettings(flags: { noise?: string; 'fail-on-regression'?: string }): ChangeSettings {
  return {
    noiseShare: flags.noise === undefined ? DEFAULT_NOISE_SHARE : parseShare(flags.noise, '--noise'),
    ...(flags['fail-on-regression'] !== undefined
      ? { failShare: parseShare(flags['fail-on-regression'], '--fail-on-regression') }
      : {}),
  };
}

export function buildChangeReport(base: RunResult, head: RunResult, settings: ChangeSettings): ChangeReport {
  const judgement = judgeChanges(base, head, { noiseShare: settings.noiseShare });
  const changes = judgement.changes;
  return {
    base,
    head,
    judgement,
    changes,
    noiseShare: settings.noiseShare,
    ...(settings.failShare !== undefined ? { failShare: settings.failShare } : {}),
    failing: settings.failShare === undefined ? [] : regressionsBeyond(changes, settings.failShare),
  };
}

/** Appends the Markdown section to the job summary; a summary that cannot be written costs a line, not the run. */
export function appendChangeSummary(report: ChangeReport, summary: string | undefined, io: CliIo): void {
  if (!summary) return;
  try {
    appendFileSync(summary, `${formatChangesMarkdown(report)}\n`);
  } catch (error) {
    io.stderr.write(
      `dbprobe: could not append the change report to the job summary ${summary}: ${error instanceof Error ? error.message : String(error)}; check the path (--summary or GITHUB_STEP_SUMMARY)\n`,
    );
  }
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
  flags: { baseline?: string; noise?: string; 'fail-on-regression'?: string; summary?: string },
  io: CliIo,
): ((results: RunResult[], code: number) => number) | undefined {
  const settings = changeSettings(flags);
  if (!flags.baseline) {
    if (flags['fail-on-regression'] !== undefined || flags.noise !== undefined)
      throw new CliError(
        '--fail-on-regression and --noise judge a change against a saved run: add --baseline BASE.json (a result saved with --format json --out)',
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
    appendChangeSummary(report, summary, io);
    if (!report.judgement.comparable) {
      io.stderr.write(
        `dbprobe: --baseline ${flags.baseline} and this run are not comparable (${report.judgement.reason}); a gate that compared nothing is an error, not a pass: pass a baseline saved from the same targets, kinds, workloads and load levels\n`,
      );
      return Math.max(code, EXIT.usage);
    }
    return report.failing.length > 0 && code === EXIT.ok ? EXIT.thresholdFailed : code;
  };
}
