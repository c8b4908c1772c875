/**
 * `dbprobe demo`: the main job with nothing to set up. Probes an embedded libSQL database in a
 * temporary folder, plus every local database named in the environment, and prints the report.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseFlags } from '../parseFlags';
import { PLAN_LIMITS } from '../../shared/limits';
import { PLAN_DEFAULTS, type PlanSpec, type TargetSpec } from '../../shared/plan';
import { Redactor } from '../../shared/redact';
import { EXPORT_FORMATS, isExportFormat } from '../../shared/formats';
import { createRegistry } from '../../drivers/registry';
import { cliPackageLookup } from '../projectPackages';
import { CliError } from '../cliError';
import { registerEnvironmentSecrets, resolveAll } from '../connections';
import { localTargetsFromEnv } from '../demoTargets';
import { GATE_FLAGS, gateOutputFiles, prepareGate } from '../gate';
import { checkOutputPlan } from '../outputPlan';
import type { CliIo } from '../io';
import { localPlace } from '../../places/localPlace';
import { CLI_LOCAL_DESCRIPTION, probeAndReport } from '../probe';

const DEMO_ENV = 'DBPROBE_DEMO_LIBSQL_URL';

export async function demoCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags({
    args: argv,
    options: {
      iterations: { type: 'string', short: 'n', default: '200' },
      warmup: { type: 'string', default: '20' },
      format: { type: 'string', short: 'f', default: 'markdown' },
      quiet: { type: 'boolean', short: 'q', default: false },
      ...GATE_FLAGS,
    },
    strict: true,
  });
  const format = values.format ?? 'markdown';
  if (!isExportFormat(format))
    throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')} (got "${format}")`);
  const iterations = Number(values.iterations);
  const warmup = Number(values.warmup);
  // The demo builds its plan itself, so it checks the plan's bounds here.
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PLAN_LIMITS.iterations)
    throw new CliError(
      `--iterations must be a whole number from 1 to ${PLAN_LIMITS.iterations} (got "${values.iterations}")`,
    );
  if (!Number.isInteger(warmup) || warmup < 0 || warmup > PLAN_LIMITS.warmup)
    throw new CliError(
      `--warmup must be a whole number from 0 to ${PLAN_LIMITS.warmup} (got "${values.warmup}")`,
    );

  const registry = createRegistry(undefined, cliPackageLookup(undefined, io.cwd));
  const folder = mkdtempSync(path.join(os.tmpdir(), 'dbprobe-demo-'));
  try {
    const env = { ...io.env, [DEMO_ENV]: `file:${path.join(folder, 'demo.db')}` };
    const targets: TargetSpec[] = [
      { name: 'embedded libSQL (file)', driver: 'libsql', connection: `env:${DEMO_ENV}` },
      ...localTargetsFromEnv(io.env, registry),
    ];
    io.stderr.write(
      `demo: ${targets.map((t) => t.name).join(', ')}${targets.length === 1 ? ' (set DBPROBE_PG_URL, DBPROBE_MYSQL_URL or DBPROBE_REDIS_URL to a local server to add it)' : ''}\n`,
    );
    const plan: PlanSpec = { ...PLAN_DEFAULTS, targets, iterations, warmup };
    const redactor = new Redactor();
    registerEnvironmentSecrets(plan, io.env, redactor);
    const { summary, verdicts } = gateOutputFiles(values, io);
    checkOutputPlan([...(summary ? [summary] : []), ...(verdicts ? [verdicts] : [])]);
    const finish = prepareGate(values, plan, redactor, io);
    const connections = resolveAll(targets, env, registry, redactor);
    return await probeAndReport(
      {
        places: [localPlace({ registry, description: CLI_LOCAL_DESCRIPTION })],
        plan,
        resolveConnection: async (target) => connections.get(target.name) ?? '',
        redactor,
        format,
        quiet: values.quiet === true,
        finish,
      },
      io,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
