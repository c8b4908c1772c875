/** Loads dbprobe.json, applies command-line overrides and validates the result as a plan. */
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { checkInputSizes } from '../core/inputBounds';
import { INPUT_LIMITS } from '../shared/limits';
import { formatIssues, validatePlan, type PlanIssue } from '../core/validate/validatePlan';
import { isRecord } from '../shared/guards';
import { configSchema } from '../shared/schema/planSchema';
import type { PlanSpec } from '../shared/plan';
import { CliError } from './cliError';

/** The fields dbprobe.json may hold: the config's own definition's ($schema first). */
const CONFIG_KEYS = Object.keys(configSchema([]).def.shape);

export interface PlanOverrides {
  targets?: string[];
  kinds?: string[];
  iterations?: number;
  warmup?: number;
  order?: string;
  coldSamples?: number;
  /** Fields from the load flags (loadFlags.ts), laid over the config's own `load` / `schedule`. */
  load?: Record<string, unknown>;
  schedule?: Record<string, unknown>;
  /** --threads: probing threads for the load and schedule kinds. */
  threads?: number;
  /** --min-effect: the smallest difference the verdict names ("5%", "0.5ms"). */
  minEffect?: string;
  /** The flag each overridden plan field came from (`iterations` -> `--iterations`), for messages. */
  flagOf?: Record<string, string>;
}

export function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    checkConfigFileSize(path);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'ENOENT'
        ? `config file ${path} not found; create one (see README "Config") or pass --config PATH`
        : `cannot read config file ${path}: ${(error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError(`config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliError(`config file ${path} must hold a JSON object with a "targets" list`);
  }
  return parsed as Record<string, unknown>;
}

/** Before reading: a huge file (or a device like /dev/zero) must not be read, parsed or matched at all. */
function checkConfigFileSize(path: string): void {
  const stat = statSync(path);
  if (!stat.isFile())
    throw new CliError(
      `config file ${path} is not a regular file; pass --config with the path of a JSON file`,
    );
  if (stat.size > INPUT_LIMITS.configBytes) {
    throw new CliError(
      `config file ${path} is ${megabytes(stat.size)} MB; the limit is ${megabytes(INPUT_LIMITS.configBytes)} MB (${INPUT_LIMITS.configBytes} bytes): a dbprobe.json holds targets and settings, not data`,
    );
  }
}

function megabytes(bytes: number): string {
  return (bytes / 1_048_576).toFixed(1);
}

export function planFromConfig(
  config: Record<string, unknown>,
  overrides: PlanOverrides,
  knownDrivers: readonly string[],
  source: string,
): PlanSpec {
  // Sizes first: later checks match patterns against these values and quote them in messages.
  const tooLarge = checkInputSizes(config);
  if (tooLarge.length > 0) throw new CliError(`${source} has problems:\n${formatIssues(tooLarge)}`);
  const unknown = Object.keys(config).filter((key) => !CONFIG_KEYS.includes(key));
  if (unknown.length > 0) {
    throw new CliError(
      `${source}: unknown field ${unknown.map((k) => `"${k}"`).join(', ')}; allowed: ${CONFIG_KEYS.filter((key) => key !== '$schema').join(', ')}`,
    );
  }
  const merged: Record<string, unknown> = { ...config };
  if (overrides.kinds) merged.kinds = overrides.kinds;
  if (overrides.iterations !== undefined) merged.iterations = overrides.iterations;
  if (overrides.warmup !== undefined) merged.warmup = overrides.warmup;
  if (overrides.order !== undefined) merged.order = overrides.order;
  if (overrides.coldSamples !== undefined)
    merged.cold = { ...(isRecord(merged.cold) ? merged.cold : {}), samples: overrides.coldSamples };
  if (overrides.threads !== undefined) merged.threads = overrides.threads;
  if (overrides.minEffect !== undefined) merged.minEffect = overrides.minEffect;
  for (const key of ['load', 'schedule'] as const) {
    const own = config[key];
    if (overrides[key])
      merged[key] = { ...(typeof own === 'object' && own !== null ? own : {}), ...overrides[key] };
  }
  const validated = validatePlan(
    merged,
    knownDrivers,
    overrides.targets ? { selected: overrides.targets } : {},
  );
  if (!validated.ok) throw new CliError(describeIssues(validated.issues, source, overrides.flagOf ?? {}));
  const plan = validated.value;
  if (overrides.targets) plan.targets = selectTargets(plan, overrides.targets);
  return plan;
}

/**
 * One problem, one line; several: a header and one line each. A problem with a value a flag set is
 * the flag's (`--iterations: must be ...`), not the config file's, which may not even hold the field.
 */
function describeIssues(issues: PlanIssue[], source: string, flagOf: Record<string, string>): string {
  const flagged = issues.map((issue) => ({ issue, flag: flagFor(issue.path, flagOf) }));
  // The field beside the flag when its name differs: `--concurrency (load.levels): must be ...`.
  const line = ({ issue, flag }: (typeof flagged)[number]) =>
    !flag
      ? formatIssues([issue])
      : issue.path === flag.slice(2)
        ? `${flag}: ${issue.message}`
        : `${flag} (${issue.path}): ${issue.message}`;
  const fromFlags = flagged.filter((f) => f.flag).length;
  const [only, ...more] = flagged;
  if (only && more.length === 0) return only.flag ? line(only) : `${source}: ${line(only)}`;
  const who =
    fromFlags === flagged.length ? 'the flags' : fromFlags === 0 ? source : `${source} and the flags`;
  return `${who} ${who === 'the flags' || fromFlags > 0 ? 'have' : 'has'} problems:\n${flagged.map(line).join('\n')}`;
}

/** The flag that set the field at `path` (or a field it lies in), if one did. */
function flagFor(path: string, flagOf: Record<string, string>): string | undefined {
  for (const [field, flag] of Object.entries(flagOf))
    if (path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`)) return flag;
  return undefined;
}

/** A relative `tls.caFile` names a file beside dbprobe.json, wherever the CLI was started. */
export function anchorTlsFiles(plan: PlanSpec, configDir: string): PlanSpec {
  for (const target of plan.targets) {
    if (target.tls?.caFile !== undefined && !path.isAbsolute(target.tls.caFile)) {
      target.tls = { ...target.tls, caFile: path.resolve(configDir, target.tls.caFile) };
    }
  }
  return plan;
}

function selectTargets(plan: PlanSpec, names: string[]): PlanSpec['targets'] {
  const missing = names.filter((name) => !plan.targets.some((t) => t.name === name));
  if (missing.length > 0) {
    throw new CliError(
      `--targets names ${missing.map((m) => `"${m}"`).join(', ')} not in the config; available: ${plan.targets.map((t) => t.name).join(', ')}`,
    );
  }
  return plan.targets.filter((t) => names.includes(t.name));
}
