/**
 * How each target reaches a runner: the secret-reference policy. A runner resolves `env:VAR` from its
 * own environment, so by default targets go by name and reference and no connection string leaves
 * the editor. A `secret:NAME` lives in this VS Code only: it can go to a runner only as a mapped
 * variable (the runner setting's `env`), or as the connection string itself when the runner accepts
 * client connections and the user agrees for this run. Otherwise the target is skipped for that
 * runner, with the variable to set there. Pure: tested without VS Code or a network.
 */
import { planLimitOverrun } from '../../shared/runnerPlanLimits';
import type { PlanSpec, TargetSpec } from '../../shared/plan';
import type { RunnerHealth, RunnerLimits } from '../../shared/runnerApi';
import { suggestEnvName } from './runnerSettings';

export type Route =
  /** Sent by name with a reference the runner resolves itself (`env:VAR`). */
  | { target: string; via: 'reference'; connection: string }
  /** Needs the user's consent: the editor sends the connection string of `secret:NAME`. */
  | { target: string; via: 'connectionString'; secret: string }
  | { target: string; via: 'skip'; reason: string };

export interface RunnerFacts {
  name: string;
  /** https, or http to this machine: the only ways a connection string may travel to it. */
  secure: boolean;
  /** `secret:NAME` connections the runner holds as environment variables (NAME -> VAR). */
  env: Readonly<Record<string, string>>;
  health: Pick<RunnerHealth, 'drivers' | 'acceptsClientConnections'>;
}

/**
 * @param localOnly references that exist on this machine only (the demo's embedded database).
 */
export function routeTarget(target: TargetSpec, runner: RunnerFacts, localOnly: ReadonlySet<string>): Route {
  const skip = (reason: string): Route => ({ target: target.name, via: 'skip', reason });
  if (localOnly.has(target.connection)) return skip('its database exists on this machine only');
  if (!runner.health.drivers.includes(target.driver)) {
    return skip(
      `runner "${runner.name}" has no ${target.driver} driver (it offers ${runner.health.drivers.join(', ') || 'none'}); update the runner, or probe this target from this machine`,
    );
  }
  const [scheme, ...rest] = target.connection.split(':');
  const name = rest.join(':');
  if (scheme === 'env' && name)
    return { target: target.name, via: 'reference', connection: target.connection };
  if (scheme !== 'secret' || !name) return skip('its connection must be secret:NAME or env:VAR');
  const mapped = runner.env[name];
  if (mapped) return { target: target.name, via: 'reference', connection: `env:${mapped}` };
  if (runner.health.acceptsClientConnections && runner.secure)
    return { target: target.name, via: 'connectionString', secret: name };
  if (runner.health.acceptsClientConnections) {
    return skip(
      `runner "${runner.name}" accepts connection strings, but over plain http, so secret:${name} would cross the network unencrypted; give the runner an https URL. ${howToMap(runner.name, name)}`,
    );
  }
  return skip(
    `runner "${runner.name}" cannot read secret:${name} (it lives in this VS Code's secret storage) and does not accept connection strings. ${howToMap(runner.name, name)} Or start the runner with DBPROBE_ALLOW_CLIENT_CONNECTIONS=1 and DBPROBE_ALLOWED_HOSTS to let the editor send it.`,
  );
}

export function routeTargets(
  targets: readonly TargetSpec[],
  runner: RunnerFacts,
  localOnly: ReadonlySet<string>,
): Route[] {
  return targets.map((t) => routeTarget(t, runner, localOnly));
}

/** After the one question per run: connection strings the user declined to send become skips. */
export function applyConsent(routes: readonly Route[], runnerName: string, allowed: boolean): Route[] {
  if (allowed) return [...routes];
  return routes.map((r) =>
    r.via === 'connectionString'
      ? {
          target: r.target,
          via: 'skip',
          reason: `you chose not to send its connection string to runner "${runnerName}". ${howToMap(runnerName, r.secret)}`,
        }
      : r,
  );
}

export interface RunnerPlan {
  /** The plan for this runner: its targets only, mapped references in place of `secret:NAME`. */
  plan: PlanSpec;
  /** Targets whose connection string the editor sends, by the `secret:NAME` it comes from. */
  send: { target: string; secret: string }[];
  skipped: { target: string; reason: string }[];
}

/** The runner's share of a plan; `undefined` when none of its targets can run there. */
export function runnerPlan(plan: PlanSpec, routes: readonly Route[]): RunnerPlan | undefined {
  const targets: TargetSpec[] = [];
  const send: RunnerPlan['send'] = [];
  const skipped: RunnerPlan['skipped'] = [];
  for (const route of routes) {
    const spec = plan.targets.find((t) => t.name === route.target);
    if (!spec) continue;
    if (route.via === 'skip') skipped.push({ target: route.target, reason: route.reason });
    else if (route.via === 'reference') targets.push({ ...spec, connection: route.connection });
    else {
      targets.push(spec);
      send.push({ target: route.target, secret: route.secret });
    }
  }
  if (targets.length === 0) return undefined;
  return { plan: { ...plan, targets }, send, skipped };
}

/** The runner refuses a plan over its limits; say so before sending, with what to change. */
export function checkLimits(plan: PlanSpec, limits: RunnerLimits, runnerName: string): string | undefined {
  const over = planLimitOverrun(plan, limits);
  if (!over) return undefined;
  return `runner "${runnerName}" allows at most ${over.max} ${over.what} per run (this plan has ${over.value}); lower ${over.setting}, or raise ${over.variable} on the runner`;
}

function howToMap(runnerName: string, secret: string): string {
  const variable = suggestEnvName(secret);
  return `To probe it there, set ${variable} to its connection string in the runner's environment and add "env": {"${secret}": "${variable}"} to runner "${runnerName}" in the dbprobe.runners setting.`;
}
