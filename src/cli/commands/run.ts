/** `dbprobe run`: probe the targets of a config file. */
import * as path from 'node:path';
import { parseFlags } from '../parseFlags';
import { PLAN_LIMITS } from '../../shared/limits';
import { PROBE_KINDS } from '../../shared/plan';
import { Redactor } from '../../shared/redact';
import type { RunResult } from '../../shared/result';
import { EXPORT_FORMATS, isExportFormat, type ExportFormat } from '../../shared/formats';
import { createRegistry } from '../../drivers/registry';
import { cliPackageLookup } from '../projectPackages';
import { CliError, EXIT } from '../cliError';
import { anchorTlsFiles, planFromConfig, readConfigFile } from '../config';
import { registerEnvironmentSecrets, resolveAll } from '../connections';
import type { CliIo } from '../io';
import { cliColdPreparer, describeSuspendCommands } from '../coldPreparer';
import { checkFlagConflicts } from '../flagConflicts';
import { CHANGE_FLAGS, CHANGE_USAGE, prepareBaseline } from '../changeGate';
import { GATE_FLAGS, gateOutputFiles, prepareGate } from '../gate';
import { checkOutputPlan, type OutputFile } from '../outputPlan';
import { outPath } from '../outPath';
import { checkDriverPackages, checkLayerPackages } from '../packagePreflight';
import { LOAD_FLAGS, LOAD_USAGE, loadFlagSources, loadOverrides, type LoadFlagValues } from '../loadFlags';
import { LOCAL_LABEL, localPlace } from '../../places/localPlace';
import { spreadThreadsPlace } from '../../places/spreadThreadsPlace';
import type { Place } from '../../places/place';
import { runnerPlace } from '../../places/runnerPlace';
import { fanOutAndReport } from '../fanOutRun';
import { CLI_LOCAL_DESCRIPTION, probeAndReport } from '../probe';
import { RAW_MAX_REQUESTS, RawOutput } from '../rawOutput';
import { PROJECTION_TITLE } from '../../report/projectionTable';
import type { ReportOptions } from '../../report/reportOptions';
import { DEFAULT_PROJECTION_RTTS_MS, MAX_PROJECTION_RTTS, readRtts } from '../../shared/projectionRtts';
import { OTLP_CANCEL_FLUSH_MS, OTLP_USAGE, otlpConfigOf } from '../otlpConfig';
import type { OtlpExport } from '../otlpExporter';

export const RUN_USAGE = `Usage: dbprobe run [--config dbprobe.json] [--targets a,b] [--kinds initial,subsequent,cold,schedule,load]
                  [--iterations N] [--warmup N] [--cold-samples N] [--order interleaved|sequential]
                  [--format markdown|json|csv] [--out FILE] [--quiet] [--rtt 1,10,30,80,150] [--app-rtt MS]
                  [--runner URL]... [--here]   (runners read DBPROBE_TOKEN; --here also runs on this machine)
                  [--fan-out]  (load/schedule: share one run among the runners and --here, merged into one report)
                  [--threshold 'TARGET:KIND:STAT<LIMIT']... [--summary FILE] [--raw FILE] [--verdicts FILE]
                  [--min-effect 5%] [--baseline BASE.json [--fail-on-regression 10%] [--strict-host]] [--otlp URL]
       --threshold  e.g. 'neon (pg):subsequent:p95<50ms', '*:initial:p99<=200ms', '*:load:p99<20ms', '*:*:errors<1%';
                    several allowed; TARGET: a name or *; KIND: ${PROBE_KINDS.join(', ')} or *;
                    STAT: p50 p90 p95 p99 p999 max mean (LIMIT above 0 in ms, us or s) or errors (% or a count);
                    every kind, by part:
                      'neon:cold:p50<2s'             the cold query (connect + first query after a suspend)
                      'neon:cold:start.p50<800ms'    the cold start: each cold sample minus the hot one after it
                                                     (start.p50, start.p99, start.max, start.mean)
                      'pg:schedule:request.p99<120ms' whole requests (corrected; same as 'pg:schedule:p99')
                      'pg:schedule#1:p99<50ms'       query 1 of each request (#2..#K: the later queries)
                      'pg:load@64:p99<20ms'          one level: corrected latency (open model), latency (closed)
                      'pg:load:kept-up>=32'          the highest level reached before one did not keep up
                    on load/schedule: a level that did not keep up or dropped requests fails, whatever its figure
                    (load@N: that level only; kept-up: never); a level or position not probed is exit 2
       --rtt        RTTs in ms (up to ${MAX_PROJECTION_RTTS}) of the Markdown's "${PROJECTION_TITLE}" table: each target's p50
                    projected to an app that far from the database (default ${DEFAULT_PROJECTION_RTTS_MS.join(',')})
       --app-rtt    the RTT in ms from where your app runs to the database: the verdict (first lines on stderr
                    and in the report) also ranks the targets there, projected from this run's counted round trips
       --min-effect the smallest difference or change the verdict names: a share of the smaller figure (5%) or an
                    amount (0.5ms); default none: the run's own intervals decide (kept in the result)
       --summary    append the Markdown report and the verdicts to FILE (default: $GITHUB_STEP_SUMMARY when set)
       --raw        write every load/schedule request to FILE as NDJSON (target, kind, level, intendedUs,
                    startUs, endUs from the level's start, ok, error class); at most ${RAW_MAX_REQUESTS.toLocaleString('en-US')} requests,
                    then one {"capped":true,...} line; one place only (this machine or one --runner; not --fan-out)
       --verdicts   write the threshold verdicts to FILE as JSON ({ passed, verdicts: [...] })
${OTLP_USAGE}
${CHANGE_USAGE}
       exit codes   0 ok; 1 a kind failed or measured nothing, or an output could not be written;
                    2 usage or config error (checked before anything is probed); 3 a threshold failed
                    or a regression beyond --fail-on-regression; 130 cancelled
${LOAD_USAGE}`;

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: {
      config: { type: 'string', short: 'c', default: 'dbprobe.json' },
      targets: { type: 'string' },
      kinds: { type: 'string' },
      iterations: { type: 'string', short: 'n' },
      warmup: { type: 'string' },
      'cold-samples': { type: 'string' },
      order: { type: 'string' },
      format: { type: 'string', short: 'f', default: 'markdown' },
      out: { type: 'string', short: 'o' },
      quiet: { type: 'boolean', short: 'q', default: false },
      runner: { type: 'string', multiple: true },
      here: { type: 'boolean', default: false },
      'fan-out': { type: 'boolean', default: false },
      raw: { type: 'string' },
      rtt: { type: 'string' },
      'app-rtt': { type: 'string' },
      'min-effect': { type: 'string' },
      otlp: { type: 'string' },
      ...GATE_FLAGS,
      ...CHANGE_FLAGS,
      ...LOAD_FLAGS,
    },
    strict: true,
    allowPositionals: false,
  });
  const format = values.format ?? 'markdown';
  if (!isExportFormat(format))
    throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')} (got "${format}")`);

  const configPath = path.resolve(io.cwd, values.config ?? 'dbprobe.json');
  const packages = cliPackageLookup(configPath, io.cwd);
  const registry = createRegistry(undefined, packages);
  const plan = anchorTlsFiles(
    planFromConfig(
      readConfigFile(configPath),
      {
        ...(values.targets !== undefined ? { targets: list(values.targets, '--targets') } : {}),
        ...(values.kinds !== undefined ? { kinds: list(values.kinds, '--kinds') } : {}),
        ...(values.iterations !== undefined
          ? { iterations: integer(values.iterations, '--iterations', 1, PLAN_LIMITS.iterations) }
          : {}),
        ...(values.warmup !== undefined
          ? { warmup: integer(values.warmup, '--warmup', 0, PLAN_LIMITS.warmup) }
          : {}),
        order: values.order,
        ...(values['cold-samples'] !== undefined
          ? { coldSamples: integer(values['cold-samples'], '--cold-samples', 1, PLAN_LIMITS.coldSamples) }
          : {}),
        ...loadOverrides(values),
        ...(values['min-effect'] !== undefined ? { minEffect: values['min-effect'] } : {}),
        flagOf: flagSources(values),
      },
      registry.ids(),
      path.relative(io.cwd, configPath) || configPath,
    ),
    path.dirname(configPath),
  );
  checkFlagConflicts(values, plan.kinds);
  const { summary, verdicts } = gateOutputFiles(values, io);
  const report = reportOptions(values.rtt, values['app-rtt'], format, summary);
  const out = outPath(values.out, io.cwd);
  const rawFile = values.raw !== undefined ? path.resolve(io.cwd, values.raw) : undefined;
  // Every file the run writes, before anything is probed (or --raw's file truncated): each writable,
  // each its own, none the config or the baseline this run reads.
  checkOutputPlan(
    [
      ...(out ? [{ flag: '--out', file: out }] : []),
      ...(rawFile ? [{ flag: '--raw', file: rawFile }] : []),
      ...(verdicts ? [verdicts] : []),
      ...(summary ? [summary] : []),
    ],
    [
      { what: 'the config file', file: configPath },
      ...(values.baseline
        ? [{ what: 'the --baseline result', file: path.resolve(io.cwd, values.baseline) }]
        : []),
    ],
  );
  const redactor = new Redactor();
  registerEnvironmentSecrets(plan, io.env, redactor);
  const otlpConfig = otlpConfigOf(values.otlp, io.env, redactor);
  const gate = prepareGate(values, plan, redactor, io, report);
  const againstBaseline = prepareBaseline(values, io);
  const gated = againstBaseline
    ? (results: RunResult[], code: number) => againstBaseline(results, gate(results, code))
    : gate;
  // Every result the report was made from (a cancelled run's too) goes to the OTLP receiver after it.
  const reported: RunResult[] = [];
  const finish = (results: RunResult[], code: number) => {
    reported.push(...results);
    return gated(results, code);
  };
  let otlp: OtlpExport | undefined;
  if (otlpConfig) {
    // Loaded only when asked for: a run without OTLP never parses the SDK.
    const { startOtlpExport } = await import('../otlpExporter');
    otlp = startOtlpExport(otlpConfig, redactor, io);
  }
  /** The code after the export: a signal during it stopped an output the run was asked for. */
  const sendOtlp = async (code: number): Promise<number> => {
    if (!otlp) return code;
    for (const result of reported) otlp.record(result);
    await otlp.shutdown(io.signal.aborted ? OTLP_CANCEL_FLUSH_MS : undefined);
    return io.signal.aborted ? Math.max(code, EXIT.cancelled) : code;
  };
  const runners = values.runner ?? [];
  // One place's requests in one file: their times are from that place's own level starts.
  if (values.raw !== undefined && (values['fan-out'] || runners.length + (values.here ? 1 : 0) > 1))
    throw new CliError(
      `--raw records the requests of one place (this machine, or one runner): it cannot be used with ${values['fan-out'] ? '--fan-out' : 'several places'}; drop one`,
    );
  checkLayerPackages(plan, packages, runners.length > 0);
  if (runners.length === 0 || values.here) checkDriverPackages(plan, packages, registry);
  const raw = rawFile !== undefined ? new RawOutput(rawFile) : undefined;
  const places: Place[] = [];
  // Runners resolve connections from their own environment: only this machine needs them here.
  let connections = new Map<string, string>();
  if (runners.length === 0 || values.here) {
    connections = resolveAll(plan.targets, io.env, registry, redactor);
    for (const line of describeSuspendCommands(plan))
      io.stderr.write(`dbprobe: ${redactor.redact(line)}
`);
    const here = localPlace({
      registry,
      description: CLI_LOCAL_DESCRIPTION,
      ...(plan.kinds.includes('cold') ? { cold: cliColdPreparer(io.env) } : {}),
      onRequest: raw?.add,
    });
    // A load run that asks for more than one thread spreads over probing threads (dist/cliThread.js).
    places.push(
      spreadThreadsPlace(here, {
        threadEntryFile: path.join(__dirname, 'cliThread.js'),
        location: { kind: 'local', label: LOCAL_LABEL },
        packages: () => packages,
        onRequest: raw?.add,
      }),
    );
  }
  if (runners.length > 0) {
    // The URL first: a token for a URL that can never be a runner's would be asked for in vain.
    const notHttp = runners.find((url) => !/^https?:\/\//.test(url));
    if (notHttp !== undefined)
      throw new CliError(
        `--runner must be an http(s) URL, the address \`dbprobe runner\` prints when it starts (got "${redactor.redact(notHttp)}")`,
      );
    const token = io.env.DBPROBE_TOKEN?.trim();
    if (!token)
      throw new CliError(
        // No "NAME=value" shape here: the redactor masks anything that looks like token=value.
        '--runner needs the runner token: set the environment variable DBPROBE_TOKEN to the token the runner was started with, then run again',
      );
    redactor.addSecret(token);
    for (const [index, url] of runners.entries()) {
      const label = redactor.nameOf(url, '--runner', index);
      places.push(runnerPlace({ url, token, label, urlName: label, onRequest: raw?.add }));
    }
  }
  if (values['fan-out']) {
    const fanOutCode = await fanOutAndReport(
      {
        plan,
        here: values.here === true,
        runners,
        token: io.env.DBPROBE_TOKEN?.trim() ?? '',
        registry,
        redactor,
        connections,
        format,
        out,
        quiet: values.quiet === true,
        finish,
      },
      io,
    );
    return sendOtlp(fanOutCode);
  }
  let code: number = EXIT.targetFailed;
  try {
    code = await probeAndReport(
      {
        places,
        plan,
        resolveConnection: async (target) => connections.get(target.name) ?? '',
        redactor,
        format,
        out,
        quiet: values.quiet === true,
        report,
        finish,
      },
      io,
    );
  } finally {
    // A --raw file that could not be written whole is a failed output: the report stands, exit 1.
    if (raw && !(await raw.close(io))) code = Math.max(code, EXIT.targetFailed);
    code = await sendOtlp(code);
  }
  return code;
}

/**
 * `--rtt` and `--app-rtt`: read before anything is probed, so a typo costs no run. `--rtt` sets the
 * Markdown's projection table, so a run that writes no Markdown (a JSON or CSV report and no job
 * summary) refuses it; `--app-rtt` sets the verdict every output states first.
 */
export function reportOptions(
  rtt: string | undefined,
  appRtt: string | undefined,
  format: ExportFormat,
  summary: OutputFile | undefined,
): ReportOptions {
  const options: ReportOptions = {};
  if (rtt !== undefined) {
    if (format !== 'markdown' && !summary)
      throw new CliError(
        `--rtt sets the RTTs of the Markdown report's "${PROJECTION_TITLE}" table, and --format ${format} writes no Markdown (nor does a job summary here), so it would be ignored: drop --rtt, or use --format markdown (or --summary FILE, which --rtt applies to)`,
      );
    const read = readRtts(rtt, '--rtt');
    if (read.error !== undefined) throw new CliError(read.error);
    options.rttsMs = read.rttsMs;
  }
  if (appRtt !== undefined) {
    const read = readRtts(appRtt, '--app-rtt');
    if (read.error !== undefined) throw new CliError(read.error);
    if (read.rttsMs.length !== 1)
      throw new CliError(`--app-rtt takes one RTT in milliseconds, e.g. 12 (got "${appRtt}")`);
    options.appRttMs = read.rttsMs[0]!;
  }
  return options;
}

/** The plan fields the flags set, each with its flag (config.ts reports their problems as the flag's). */
function flagSources(
  values: LoadFlagValues & {
    iterations?: string;
    warmup?: string;
    order?: string;
    kinds?: string;
    'cold-samples'?: string;
    'min-effect'?: string;
  },
): Record<string, string> {
  const sources: Record<string, string> = loadFlagSources(values);
  for (const [flag, field] of [
    ['iterations', 'iterations'],
    ['warmup', 'warmup'],
    ['order', 'order'],
    ['kinds', 'kinds'],
    ['cold-samples', 'cold.samples'],
    ['min-effect', 'minEffect'],
  ] as const)
    if (values[flag] !== undefined) sources[field] = `--${flag}`;
  return sources;
}

/** A comma list; an empty one would quietly mean "the config's", so it is refused. */
function list(value: string, flag: string): string[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0)
    throw new CliError(
      `${flag} is empty; give one or more names separated by commas${flag === '--kinds' ? ` (${PROBE_KINDS.join(', ')})` : ''}, or leave the flag out to use the config's`,
    );
  return items;
}

/** The range is checked with the plan (same message as dbprobe.json); it is named here for the typo. */
function integer(value: string, flag: string, min: number, max: number): number {
  if (!/^\d+$/.test(value))
    throw new CliError(`${flag} must be a whole number from ${min} to ${max} (got "${value}")`);
  return Number(value);
}
