/**
 * Turns a target's connection reference into its connection string, at run time only:
 * `secret:NAME` from SecretStorage, `env:VAR` from the extension host's environment, and the demo's
 * built-in database. Every string is registered with the log's Redactor before anything can print it.
 */
import { ProbeError } from '../../core/failure';
import type { TargetSpec } from '../../shared/plan';
import type { Redactor } from '../../shared/redact';
import type { ConnectionStore } from '../connections/connectionStore';

export interface ResolverDeps {
  connections: ConnectionStore;
  env: NodeJS.ProcessEnv;
  builtIn: ReadonlyMap<string, string>;
  redactors: Redactor[];
}

export function createResolver(deps: ResolverDeps): (target: TargetSpec) => Promise<string> {
  return async (target) => {
    const url = await lookup(target, deps);
    for (const redactor of deps.redactors) redactor.addSecret(url);
    return url;
  };
}

async function lookup(target: TargetSpec, deps: ResolverDeps): Promise<string> {
  const builtIn = deps.builtIn.get(target.connection);
  if (builtIn) return builtIn;
  const colon = target.connection.indexOf(':');
  const scheme = target.connection.slice(0, colon);
  const name = target.connection.slice(colon + 1);
  if (scheme === 'secret') {
    const value = await deps.connections.get(name);
    if (value) return value;
    throw new ProbeError(
      'config',
      `no connection "${name}" in this VS Code's secret storage (target "${target.name}" uses secret:${name}); run "DB Probe: Add Connection" and name it ${name}`,
    );
  }
  if (scheme === 'env') {
    const value = deps.env[name]?.trim();
    if (value) return value;
    throw new ProbeError(
      'config',
      `environment variable ${name} is not set for VS Code's extension host (target "${target.name}"); store the connection with "DB Probe: Add Connection" and use secret:NAME instead`,
    );
  }
  throw new ProbeError('config', `target "${target.name}": connection must be "secret:NAME" or "env:VAR"`);
}

/** References whose secret is missing, checked before a run so the user can add them first. */
export async function missingSecrets(targets: TargetSpec[], deps: ResolverDeps): Promise<string[]> {
  const missing: string[] = [];
  for (const t of targets) {
    if (deps.builtIn.has(t.connection) || !t.connection.startsWith('secret:')) continue;
    const name = t.connection.slice('secret:'.length);
    if (!(await deps.connections.get(name))) missing.push(name);
  }
  return [...new Set(missing)];
}
