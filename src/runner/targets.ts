/**
 * Resolves a plan's connection references on the runner. By default only the runner's own
 * environment (`env:VAR`): secrets stay on the runner. Connection strings sent by the client are
 * accepted only when the operator opted in and the host is on the allowlist.
 */
import type { PlanSpec } from '../shared/plan';
import type { RunnerConfig } from './runnerConfig';
import { connectionHost, endpointHost, hostAllowed } from './hostPolicy';

export type Resolution =
  | { ok: true; connections: Map<string, string> }
  | { ok: false; status: number; code: 'bad_plan' | 'connection_refused_by_policy'; message: string };

export function resolveTargets(
  plan: PlanSpec,
  supplied: Record<string, string> | undefined,
  config: RunnerConfig,
  endpointOptionsOf: (driver: string) => readonly string[] = () => [],
): Resolution {
  const connections = new Map<string, string>();
  for (const target of plan.targets) {
    const endpointProblem = checkEndpointOptions(target, endpointOptionsOf(target.driver), config);
    if (endpointProblem) return refuse(endpointProblem);
    const fromClient = supplied?.[target.name];
    if (fromClient !== undefined) {
      if (!config.allowClientConnections) {
        return refuse(
          `target "${target.name}": this runner does not accept connection strings from clients; set ${target.connection.replace(/^\w+:/, '')} in the runner's environment and reference it as env:VAR (or start the runner with DBPROBE_ALLOW_CLIENT_CONNECTIONS=1 and DBPROBE_ALLOWED_HOSTS)`,
        );
      }
      const checked = connectionHost(fromClient);
      if (!checked.ok) {
        return refuse(`target "${target.name}": the connection string is refused because ${checked.reason}`);
      }
      if (!hostAllowed(checked.host, config.allowedHosts)) {
        return refuse(
          `target "${target.name}": host ${checked.host} is not in this runner's DBPROBE_ALLOWED_HOSTS`,
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

/**
 * An option that sends the connection elsewhere (neon-http's fetchEndpoint, neon-ws's wsProxy) could
 * carry the runner's own secret to any host: it must point at an allowed host.
 */
function checkEndpointOptions(
  target: PlanSpec['targets'][number],
  names: readonly string[],
  config: RunnerConfig,
): string | undefined {
  for (const name of names) {
    const value = target.options?.[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return `target "${target.name}": option ${name} must be a string`;
    const checked = endpointHost(value);
    if (!checked.ok) return `target "${target.name}": option ${name} is refused because ${checked.reason}`;
    if (!hostAllowed(checked.host, config.allowedHosts)) {
      return `target "${target.name}": option ${name} points at ${checked.host}, which is not in this runner's DBPROBE_ALLOWED_HOSTS; leave it unset to use the driver's default endpoint`;
    }
  }
  return undefined;
}
