/**
 * The gate's verdicts as the action shows them: `::error` annotations (one per failed threshold, one
 * per regression beyond noise, pointing at the target in the config) and the Markdown block that
 * opens the job summary and the pull-request comment. Pure: it relays what the CLI decided (the
 * --verdicts JSON and `dbprobe compare --format json`) in the CLI's own words and decides nothing.
 */
import { targetLine } from './configLines.mjs';
import { workflowCommand } from './workflowCommands.mjs';

/** What the CLI's exit code means (`dbprobe run --help`). */
export function exitMeaning(code) {
  if (code === 0) return 'passed';
  if (code === 1) return 'failed: a target failed or an output could not be written (exit 1)';
  if (code === 2) return 'failed: a usage error, or a baseline with nothing comparable (exit 2)';
  if (code === 3) return 'failed: a threshold or the regression gate failed (exit 3)';
  if (code === 130) return 'cancelled (exit 130)';
  return `failed (exit ${code})`;
}

function signedMs(us) {
  return `${us > 0 ? '+' : ''}${(us / 1000).toFixed(3)}`;
}

function signedPercent(share) {
  return `${share > 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;
}

/** "p50 0.258 -> 2.680 ms: +2.422 ms [+2.413, +2.432] (+938.8%)", the regressed percentiles of a change. */
function regressedFigures(change) {
  return change.percentiles
    .filter((p) => p.verdict === 'regressed')
    .map(
      (p) =>
        `p${p.percentile} ${(p.baseUs / 1000).toFixed(3)} -> ${(p.headUs / 1000).toFixed(3)} ms: ${signedMs(p.diffUs)} ms [${signedMs(p.lowUs)}, ${signedMs(p.highUs)}] (${signedPercent(p.share)})`,
    )
    .join('; ');
}

/** How a regression stands against --fail-on-regression: failing it, within it, or no gate set. */
function gateOf(report, change) {
  if (report.failOnRegression === undefined)
    return 'no fail-on-regression gate is set, so it is reported and does not fail the step';
  const limit = signedPercent(report.failOnRegression);
  const fails = (report.failing ?? []).some((f) => f.target === change.target && f.kind === change.kind);
  return fails
    ? `it fails the fail-on-regression ${limit} gate`
    : `within the fail-on-regression ${limit} gate, so it does not fail the step`;
}

/**
 * The annotations: `config.file` is the config's path from the repository root (where GitHub shows
 * it), `config.text` its content (for the target's line).
 */
export function gateAnnotations({ verdicts, report, config = {} }) {
  const at = (target) => ({
    file: config.file,
    line: config.text !== undefined && config.file ? targetLine(config.text, target) : undefined,
  });
  const lines = [];
  for (const v of verdicts?.verdicts ?? [])
    if (!v.passed)
      lines.push(workflowCommand('error', { ...at(v.target), title: 'dbprobe threshold failed' }, v.text));
  if (report && report.comparable === false)
    lines.push(
      workflowCommand(
        'error',
        { file: config.file, title: 'dbprobe baseline not comparable' },
        `the baseline and this run have nothing comparable (${report.reason ?? 'see the summary'}): a gate that compared nothing is an error, not a pass`,
      ),
    );
  for (const change of report?.changes ?? [])
    if (change.verdict === 'regressed')
      lines.push(
        workflowCommand(
          'error',
          { ...at(change.target), title: 'dbprobe regression' },
          `target "${change.target}" ${change.kind} regressed (established by the runs' own intervals${minimumWords(report)}): ${regressedFigures(change)}; ${gateOf(report, change)}`,
        ),
      );
    else if (change.verdict === 'not attributable')
      lines.push(
        workflowCommand(
          report.strictHost ? 'error' : 'notice',
          { ...at(change.target), title: 'dbprobe change not attributable' },
          `target "${change.target}" ${change.kind} moved while the host did (${change.percentiles.find((p) => p.host)?.host?.sentence ?? 'a busier host on one side'}): ${report.strictHost ? 'strict-host is set, so the gate counts it' : 'the gate does not fail on it; set strict-host to count it'}`,
        ),
      );
  return lines;
}

/** The block that opens the job summary and the comment: the outcome, then each verdict line. */
export function verdictMarkdown({ code, verdicts, report }) {
  const outcome = exitMeaning(code);
  const lines = [`## dbprobe: ${code === 0 ? outcome : `**${outcome}**`}`, ''];
  for (const v of verdicts?.verdicts ?? [])
    lines.push(`- ${v.passed ? 'pass' : '**FAIL**'}: ${v.text.replace(/\r?\n/g, ' ')}`);
  if (report) {
    for (const line of report.lines ?? []) lines.push(`- ${line}`);
    if (report.failOnRegression !== undefined) {
      const limit = signedPercent(report.failOnRegression);
      const failing = report.failing ?? [];
      lines.push(
        failing.length === 0
          ? `- Gate fail-on-regression ${limit}: passed.`
          : `- **Gate fail-on-regression ${limit}: FAILED**: ${failing.map((f) => f.text).join('; ')}.`,
      );
    }
  }
  if (!verdicts?.verdicts?.length && !report)
    lines.push('- No thresholds and no baseline were given: the run below is the whole verdict.');
  lines.push('');
  return lines.join('\n');
}

/** "; at least 5% of the baseline" when a minimum effect was set. */
function minimumWords(report) {
  const effect = report.minEffect;
  if (!effect) return '';
  return 'share' in effect
    ? `, at least ${(effect.share * 100).toFixed(1)}% of the faster`
    : `, at least ${(effect.us / 1000).toFixed(3)} ms`;
}
