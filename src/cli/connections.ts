/**
 * Resolves `env:VAR` references for the CLI, checking every target before the run starts so a
 * missing variable or a malformed connection string is a config error (exit 2), not a failed run.
 */
import { INPUT_LIMITS } from '../shared/limits';
import { checkConnectionString } from '../core/slot';
import type { DriverRegistry } from '../core/driver';
import { envNamesOfPlan, secretsInEnvironment } from '../shared/envSecrets';
import type { PlanSpec, TargetSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import { CliError } from './cliError';

export function resolveReference(
  target: TargetSpec,
  env: NodeJS.ProcessEnv,
  registry: DriverRegistry,
): string {
  const [scheme, name = ''] = splitReference(target.connection);
  // Same shape as a failed target's line: target, driver, class, what happened, what to do.
  const label = `target "${target.name}" (${target.driver}): config:`;
  const example = registry.info(target.driver)?.connectionExample ?? 'the connection string';
  if (scheme === 'secret') {
    throw new CliError(
      `${label} "${target.connection}" lives in VS Code's secret storage, which the CLI cannot read; use "env:${toEnvName(name)}" and set that variable`,
    );
  }
  if (scheme !== 'env') {
    throw new CliError(`${label} connection must be "env:VAR_NAME" (got "${target.connection}")`);
  }
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new CliError(
      `${label} environment variable ${name} is not set (connection "${target.connection}"); set it, e.g. export ${name}='${example}'`,
    );
  }
  if (value.length > INPUT_LIMITS.connectionStringChars) {
    throw new CliError(
      `${label} environment variable ${name} holds ${value.length} characters; a connection string may have at most ${INPUT_LIMITS.connectionStringChars}: check that it holds only the connection string`,
    );
  }
  return value.trim();
}

/** Resolves and checks every target; registers each secret with the redactor first. */
export function resolveAll(
  targets: TargetSpec[],
  env: NodeJS.ProcessEnv,
  registry: DriverRegistry,
  redactor: Redactor,
): Map<string, string> {
  const resolved = new Map<string, string>();
  for (const target of targets) {
    const url = resolveReference(target, env, registry);
    redactor.addSecret(url);
    const info = registry.info(target.driver);
    if (info) {
      const problem = checkConnectionString(url, info);
      if (problem)
        throw new CliError(redactor.redact(`target "${target.name}" (${target.driver}): config: ${problem}`));
    }
    resolved.set(target.name, url);
  }
  return resolved;
}

/**
 * Registers every secret the environment holds (the variables the plan names, DBPROBE_TOKEN, and
 * any whose name or value says it is a secret: src/shared/envSecrets.ts) before anything runs: a
 * suspend command inherits this environment and may print any of them.
 */
export function registerEnvironmentSecrets(
  plan: Pick<PlanSpec, 'targets'>,
  env: NodeJS.ProcessEnv,
  redactor: Redactor,
): void {
  for (const secret of secretsInEnvironment(env, envNamesOfPlan(plan))) redactor.addSecret(secret);
}

function splitReference(reference: string): [string, string] {
  const colon = reference.indexOf(':');
  return colon === -1 ? ['', reference] : [reference.slice(0, colon), reference.slice(colon + 1)];
}

function toEnvName(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}
