/**
 * `dbprobe report RUN.json [--app-rtt MS]`: a saved run's report again, for where the app runs. The
 * verdict lines go to stderr first, the words the panel and the Markdown begin with for the same
 * result and app location; the report (Markdown by default) to stdout or --out.
 */
import * as path from 'node:path';
import { FORMATTERS } from '../../report/formatters';
import { EXPORT_FORMATS, isExportFormat } from '../../shared/formats';
import { Redactor } from '../../shared/redact';
import { appRttLeftOutLine } from '../appRttLeftOut';
import { CliError } from '../cliError';
import type { CliIo } from '../io';
import { checkOutputPlan } from '../outputPlan';
import { outPath } from '../outPath';
import { parseFlags } from '../parseFlags';
import { readRunFile } from '../readRunFile';
import { writeReport } from '../reportOutput';
import { runSummaryLines } from '../stderrSummary';
import { reportOptions } from './run';

export const REPORT_USAGE = `Usage: dbprobe report RUN.json [--app-rtt MS] [--rtt 1,10,30,80,150] [--format markdown|json|csv] [--out FILE] [--quiet]
       RUN          a result saved with dbprobe run --format json --out FILE (or exported from the editor)
       prints the run's verdict on stderr (for --app-rtt when given: the lines the panel shows first for
       the same app location), then writes its report to stdout or --out`;

export async function reportCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags({
    args: argv,
    options: {
      'app-rtt': { type: 'string' },
      rtt: { type: 'string' },
      format: { type: 'string', short: 'f', default: 'markdown' },
      out: { type: 'string', short: 'o' },
      quiet: { type: 'boolean', short: 'q', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  if (positionals.length !== 1)
    throw new CliError(
      `report takes one saved result, RUN.json (got ${positionals.length})\n${REPORT_USAGE}`,
    );
  const format = values.format ?? 'markdown';
  if (!isExportFormat(format))
    throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')} (got "${format}")`);
  const options = reportOptions(values.rtt, values['app-rtt'], format, undefined);
  const runPath = path.resolve(io.cwd, positionals[0]!);
  const out = outPath(values.out, io.cwd);
  checkOutputPlan(out ? [{ flag: '--out', file: out }] : [], [{ what: 'RUN, a result', file: runPath }]);
  const result = readRunFile(runPath, 'RUN');
  // A saved result holds no secret, but a hand-edited one might: the usual patterns mask it.
  const redactor = new Redactor();
  if (!values.quiet) {
    const judge = options.appRttMs !== undefined ? { appRttMs: options.appRttMs } : {};
    for (const line of runSummaryLines(result, judge)) io.stderr.write(`${redactor.redact(line)}\n`);
    const leftOut = appRttLeftOutLine(result, options.appRttMs);
    if (leftOut) io.stderr.write(`${redactor.redact(leftOut)}\n`);
  }
  return writeReport(redactor.redact(FORMATTERS[format](result, options)), format, out, io);
}
