/**
 * `dbprobe compare BASE.json HEAD.json`: two saved runs, per target and kind, p50 and p99 with the
 * bootstrap interval of the change and a verdict. Exit 0 = no failing regression, 1 = a regression
 * beyond noise above --fail-on-regression (like `diff`, 1 means "they differ"), 2 = usage, or
 * nothing comparable (a gate that compared nothing is an error, not a pass).
 */
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { parseFlags } from '../parseFlags';
import { formatChangesJson, formatChangesMarkdown, formatChangesText } from '../../report/changes';
import { appendChangeSummary, buildChangeReport, changeSettings, summaryPath } from '../changeGate';
import { CHANGE_VERDICTS_HELP } from '../../shared/judgement/runChanges';
import { CliError, EXIT } from '../cliError';
import type { CliIo } from '../io';
import { checkOutputPlan } from '../outputPlan';
import { readRunFile } from '../readRunFile';
import { outPath } from '../outPath';
import { tlsDifferences } from '../../shared/tlsNotVerified';
import { writeReport } from '../reportOutput';

export const COMPARE_USAGE = `Usage: dbprobe compare BASE.json HEAD.json [--fail-on-regression 10%] [--min-effect 5%] [--strict-host]
                  [--format text|markdown|json] [--out FILE] [--summary FILE]
       BASE, HEAD   results saved with dbprobe run --format json --out FILE
       prints, per target and kind, p50 and p99 BASE -> HEAD with the 95% bootstrap interval of the change
       (warm connections resampled, then samples in blocks): ${CHANGE_VERDICTS_HELP}; the verdict lines come first
       --fail-on-regression 10%   exit 1 when an established regression exceeds 10% of BASE
       --min-effect 5%   name no change smaller than this share of BASE (or an amount: 0.5ms); default none
       --strict-host   also fail on a rise the host may explain
       --summary    append the Markdown to FILE (default: $GITHUB_STEP_SUMMARY when set)
       exit codes   0 no failing regression; 1 --fail-on-regression failed, a target BASE measured failed
                    every sample in HEAD (with the gate, or when nothing else compares), or an output could not be written;
                    2 usage error (a BASE or HEAD that is not a valid run result, an output path that
                    cannot be written or names BASE or HEAD), or the runs are not comparable (no target
                    and kind in common; other workloads, load levels or model)`;

/** Like `diff`: 1 says "they differ" (here: a regression beyond the gate). */
const EXIT_REGRESSED = 1;

const FORMATS = {
  text: formatChangesText,
  markdown: formatChangesMarkdown,
  json: formatChangesJson,
} as const;

export async function compareCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags({
    args: argv,
    options: {
      'fail-on-regression': { type: 'string' },
      'min-effect': { type: 'string' },
      'strict-host': { type: 'boolean' },
      noise: { type: 'string' },
      format: { type: 'string', short: 'f', default: 'text' },
      out: { type: 'string', short: 'o' },
      summary: { type: 'string' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length !== 2)
    throw new CliError(
      `compare takes two saved results, BASE then HEAD (got ${positionals.length})\n${COMPARE_USAGE}`,
    );
  const format = values.format ?? 'text';
  if (!(format in FORMATS))
    throw new CliError(`--format must be one of ${Object.keys(FORMATS).join(', ')} (got "${format}")`);
  const settings = changeSettings(values);
  const out = outPath(values.out, io.cwd);
  const summary = summaryPath(values.summary, io);
  const basePath = path.resolve(io.cwd, positionals[0]!);
  const headPath = path.resolve(io.cwd, positionals[1]!);
  checkOutputPlan(
    [
      ...(out ? [{ flag: '--out', file: out }] : []),
      ...(summary ? [{ flag: values.summary ? '--summary' : 'GITHUB_STEP_SUMMARY', file: summary }] : []),
    ],
    [
      { what: 'BASE, a result', file: basePath },
      { what: 'HEAD, a result', file: headPath },
    ],
  );
  if (sameFile(basePath, headPath))
    throw new CliError(
      `BASE and HEAD are the same file (${positionals[0]} and ${positionals[1]}): a run compared with itself shows no change by construction; pass the result saved before the change as BASE and the one after as HEAD`,
    );
  const base = readRunFile(basePath, 'BASE');
  const head = readRunFile(headPath, 'HEAD');
  const report = buildChangeReport(base, head, settings);
  // A target checked on one side and not on the other may be two servers: the change is suspect.
  const tls = tlsDifferences(base.targets, head.targets).map(
    (d) =>
      `TLS not verified for ${d.target} in ${d.unverifiedIn} only: its server certificate was checked in ${d.unverifiedIn === 'HEAD' ? 'BASE' : 'HEAD'} and not in ${d.unverifiedIn}, so a change between them may be another server answering, not a change of latency`,
  );
  // A side that stopped early covers part of what was asked: said first, beside its figures.
  const partial = (
    [
      ['BASE', positionals[0]!, base],
      ['HEAD', positionals[1]!, head],
    ] as const
  ).flatMap(([side, file, run]) =>
    run.state === 'completed'
      ? []
      : [
          `${side} ${file} is a run that ${run.state === 'cancelled' ? 'was cancelled' : 'stopped early'} (${run.stopReason}): its figures cover only part of what it asked, so compare it knowing that, or run it again in full`,
        ],
  );
  const notes = [...tls, ...partial];
  for (const line of notes) io.stderr.write(`dbprobe: ${line}\n`);
  const text = FORMATS[format as keyof typeof FORMATS](report);
  const written = writeReport(
    format === 'json' || notes.length === 0
      ? text
      : `${notes.map((line) => `> **${line.replace(/: /, ':** ')}`).join('\n')}\n\n${text}`,
    format === 'text' ? 'markdown' : format === 'json' ? 'json' : 'markdown',
    out,
    io,
  );
  const summaryWritten = appendChangeSummary(report, summary, io);
  // Every sample of a target failing in HEAD is worse than any slowdown: said, and a gate fails on it
  // (as does a comparison left with nothing else: HEAD lost what BASE measured).
  const failedInHead = report.changes.filter((c) => c.failedIn === 'HEAD');
  const failsOnIt = settings.failShare !== undefined || !report.judgement.comparable;
  for (const c of failedInHead)
    io.stderr.write(
      `dbprobe: target "${c.target}" ${c.kind}: ${c.note}; ${failsOnIt ? 'exit 1, as for a regression' : 'a gate (--fail-on-regression) fails on it'}: see why in HEAD's firstErrors, fix the target and run again\n`,
    );
  if (failedInHead.length > 0 && failsOnIt) return EXIT_REGRESSED;
  if (!report.judgement.comparable) {
    // A BASE that measured nothing is mended by measuring BASE again, not by choosing other files.
    const todo = report.changes.some((c) => c.failedIn === 'BASE')
      ? "see why in BASE's firstErrors, measure BASE again, then compare"
      : 'compare two results of the same targets, kinds, workloads and load levels';
    io.stderr.write(
      `dbprobe: not comparable: ${report.judgement.reason}; nothing was compared, which is an error, not a pass: ${todo}\n`,
    );
    return EXIT.usage;
  }
  if (report.failing.length > 0) return EXIT_REGRESSED;
  // An output asked for and not written fails the command, as in `dbprobe run`.
  return summaryWritten ? written : Math.max(written, EXIT.targetFailed);
}

/** One file under two names (a link, `./x` and `x`) is still one file. */
function sameFile(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}
