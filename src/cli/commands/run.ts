/** `dbprobe run`: probe the targets of a config file. */
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Redactor } from '../../shared/redact';
import { EXPORT_FORMATS, isExportFormat } from '../../shared/formats';
import { createRegistry } from '../../drivers/registry';
import { CliError } from '../cliError';
import { anchorTlsFiles, planFromConfig, readConfigFile } from '../config';
import { registerEnvironmentSecrets, resolveAll } from '../connections';
import type { CliIo } from '../io';
import { cliColdPreparer, describeSuspendCommands } from '../coldPreparer';
import { GATE_FLAGS, prepareGate } from '../gate';
import { LOAD_FLAGS, LOAD_USAGE, loadOverrides } from '../loadFlags';
import { localPlace } from '../../places/localPlace';
import type { Place } from '../../places/place';
import { runnerPlace } from '../../places/runnerPlace';
import { fanOutAndReport } from '../fanOutRun';
import { CLI_LOCAL_DESCRIPTION, probeAndReport } from '../probe';

export const RUN_USAGE = `Usage: dbprobe run [--config dbprobe.json] [--targets a,b] [--kinds initial,subsequent,cold,schedule,load]
                  [--iterations N] [--warmup N] [--cold-samples N] [--order interleaved|sequential]
                  [--format markdown|json|csv] [--out FILE] [--quiet]
                  [--runner URL]... [--here]   (runners read DBPROBE_TOKEN; --here also runs on this machine)
                  [--fan-out]  (load/schedule: share one run among the runners and --here, merged into one report)
                  [--threshold 'TARGET:KIND:STAT<LIMIT']... [--summary FILE]
       --threshold  e.g. 'neon (pg):subsequent:p95<50ms', '*:initial:p99<=200ms', '*:*:errors<1%'; several allowed;
                    STAT: p50 p90 p95 p99 p999 max mean (LIMIT in ms, us or s) or errors (% or a count)
       --summary    append the Markdown report and the verdicts to FILE (default: $GITHUB_STEP_SUMMARY when set)
       exit codes   0 ok; 1 a target failed entirely; 2 usage or config error; 3 a threshold failed; 130 cancelled
${LOAD_USAGE}`;

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
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
      ...GATE_FLAGS,
      ...LOAD_FLAGS,
    },
    strict: true,
    allowPositionals: false,
  });
  const format = values.format ?? 'markdown';
  if (!isExportFormat(format))
    throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')} (got "${format}")`);

  const registry = createRegistry();
  const configPath = path.resolve(io.cwd, values.config ?? 'dbprobe.json');
  const plan = anchorTlsFiles(
    planFromConfig(
      readConfigFile(configPath),
      {
        ...(values.targets ? { targets: list(values.targets) } : {}),
        ...(values.kinds ? { kinds: list(values.kinds) } : {}),
        ...(values.iterations !== undefined
          ? { iterations: integer(values.iterations, '--iterations') }
          : {}),
        ...(values.warmup !== undefined ? { warmup: integer(values.warmup, '--warmup') } : {}),
        ...(values.order !== undefined ? { order: values.order } : {}),
        ...(values['cold-samples'] !== undefined
          ? { coldSamples: integer(values['cold-samples'], '--cold-samples') }
          : {}),
        ...loadOverrides(values),
      },
      registry.ids(),
      path.relative(io.cwd, configPath) || configPath,
    ),
    path.dirname(configPath),
  );
  const redactor = new Redactor();
  registerEnvironmentSecrets(plan, io.env, redactor);
  const finish = prepareGate(values, plan, redactor, io);
  const runners = values.runner ?? [];
  const places: Place[] = [];
  // Runners resolve connections from their own environment: only this machine needs them here.
  let connections = new Map<string, string>();
  if (runners.length === 0 || values.here) {
    connections = resolveAll(plan.targets, io.env, registry, redactor);
    for (const line of describeSuspendCommands(plan))
      io.stderr.write(`dbprobe: ${redactor.redact(line)}
`);
    places.push(
      localPlace({
        registry,
        description: CLI_LOCAL_DESCRIPTION,
        ...(plan.kinds.includes('cold') ? { cold: cliColdPreparer(io.env) } : {}),
      }),
    );
  }
  if (runners.length > 0) {
    const token = io.env.DBPROBE_TOKEN?.trim();
    if (!token)
      throw new CliError(
        // No "NAME=value" shape here: the redactor masks anything that looks like token=value.
        '--runner needs the runner token: set the environment variable DBPROBE_TOKEN to the token the runner was started with, then run again',
      );
    redactor.addSecret(token);
    for (const url of runners) {
      if (!/^https?:\/\//.test(url)) throw new CliError(`--runner must be an http(s) URL (got "${url}")`);
      places.push(runnerPlace({ url, token, label: url }));
    }
  }
  if (values['fan-out'])
    return fanOutAndReport(
      {
        plan,
        here: values.here === true,
        runners,
        token: io.env.DBPROBE_TOKEN?.trim() ?? '',
        registry,
        redactor,
        connections,
        format,
        ...(values.out ? { out: path.resolve(io.cwd, values.out) } : {}),
        quiet: values.quiet === true,
        finish,
      },
      io,
    );
  return probeAndReport(
    {
      places,
      plan,
      resolveConnection: async (target) => connections.get(target.name) ?? '',
      redactor,
      format,
      ...(values.out ? { out: path.resolve(io.cwd, values.out) } : {}),
      quiet: values.quiet === true,
      finish,
    },
    io,
  );
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function integer(value: string, flag: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(`${flag} must be a whole number (got "${value}")`);
  return Number(value);
}
