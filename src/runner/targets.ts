/**
 * Resolves a plan's connection references on the runner. By default only the runner's own
 * environment (`env:VAR`): secrets stay on the runner. Connection strings sent by the client are
 * accepted only when the operator opted in and the host is on the allowlist.
 */
import type { PlanSpec } from '../shared/plan';
import type { RunnerConfig } from './config';

export type Resolution =
  | { ok: true; connections: Map<string, string> }
  | { ok: false; status: number; code: 'bad_plan' | 'connection_refused_by_policy'; message: string };

export function resolveTargets(
  plan: PlanSpec,
  supplied: Record<string, string> | undefined,
  config: RunnerConfig,
): Resolution {
  const connections = new Map<string, string>();
  for (const target of plan.targets) {
    const fromClient = supplied?.[target.name];
    if (fromClient !== undefined) {
      if (!config.allowClientConnections) {
        return refuse(
          `target "${target.name}": this runner does not accept connection strings from clients; set ${target.connection.replace(/^\w+:/, '')} in the runner's environment and reference it as env:VAR (or start the runner with DBPROBE_ALLOW_CLIENT_CONNECTIONS=1 and DBPROBE_ALLOWED_HOSTS)`,
        );
      }
      const host = hostOf(fromClient);
      if (!host || !hostAllowed(host, config.allowedHosts)) {
        return refuse(
          `target "${target.name}": host ${host ?? '(none)'} is not in this runner's DBPROBE_ALLOWED_HOSTS`,
        );
      }
      connections.set(target.name, fromClient);
      continue;
    }
    const match = /^env:(.+)$/.exec(target.connection);
    if (!match?.[1]) {
      return {
        ok: false,
        status: 400,
        code: 'bad_plan',
        message: `target "${target.name}": a runner resolves only env:VAR references (got "${target.connection}"); set the variable on the runner`,
      };
    }
    const value = config.env[match[1]];
    if (!value) {
      return {
        ok: false,
        status: 400,
        code: 'bad_plan',
        message: `target "${target.name}": ${match[1]} is not set on this runner; set it in the runner's environment`,
      };
    }
    connections.set(target.name, value);
  }
  return { ok: true, connections };
}

function refuse(message: string): Resolution {
  return { ok: false, status: 403, code: 'connection_refused_by_policy', message };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

function hostAllowed(host: string, allowed: string[]): boolean {
  return allowed.some((pattern) =>
    pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern,
  );
}
