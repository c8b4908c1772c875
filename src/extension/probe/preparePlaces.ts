/**
 * Turns the places the user picked into places ready to run: this machine as it is; each runner
 * after its token is found and its health answers (within a bound), with its own share of the plan
 * per the secret-reference policy (routes.ts), and the connection strings it may receive only after
 * the user agreed for this run. A runner that cannot run becomes a failed place that says why.
 */
import * as vscode from 'vscode';
import { LOCAL_LABEL } from '../../places/localPlace';
import type { Place } from '../../places/place';
import { runnerPlace } from '../../places/runnerPlace';
import type { PlanSpec } from '../../shared/plan';
import type { RunnerHealth } from '../../shared/runnerApi';
import type { GroupPlace } from '../runs/runGroup';
import { checkRunnerHealth } from '../runners/health';
import { runnerLabels, type PlaceChoice } from '../runners/placeChoices';
import { applyConsent, checkLimits, routeTargets, runnerPlan, type Route } from '../runners/routes';
import { isLoopback, type RunnerSetting } from '../runners/runnerSettings';
import type { Services } from '../services';
import { askToSendConnections } from './sendConsent';

export interface PlannedPlace {
  place: Place;
  plan: PlanSpec;
  skipped: { target: string; reason: string }[];
}

export interface PreparedPlaces {
  planned: PlannedPlace[];
  /** Places that cannot run at all (no token, unreachable, nothing to run there), with why. */
  failed: GroupPlace[];
  /** Tokens and connection strings this run handles: its Redactor must know them. */
  secrets: string[];
}

type Checked =
  | { runner: RunnerSetting; problem: string }
  | { runner: RunnerSetting; token: string; health: RunnerHealth; routes: Route[] };

/** undefined when the user cancelled (at the question about sending connection strings). */
export async function preparePlaces(
  services: Services,
  plan: PlanSpec,
  chosen: readonly PlaceChoice[],
): Promise<PreparedPlaces | undefined> {
  const prepared: PreparedPlaces = { planned: [], failed: [], secrets: [] };
  if (chosen.some((c) => !c.runner)) prepared.planned.push({ place: services.local, plan, skipped: [] });
  const runners = chosen.flatMap((c) => (c.runner ? [c.runner] : []));
  if (runners.length === 0) return prepared;

  const localOnly = new Set(services.builtInConnections.keys());
  const checked = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'DB Probe: asking the runners…' },
    () => Promise.all(runners.map((runner) => check(services, runner, plan, localOnly, prepared.secrets))),
  );

  const asking = checked.flatMap((c) =>
    'routes' in c
      ? [
          {
            runner: c.runner.name,
            url: c.runner.url,
            targets: c.routes.flatMap((r) =>
              r.via === 'connectionString' ? [{ target: r.target, secret: r.secret }] : [],
            ),
          },
        ].filter((a) => a.targets.length > 0)
      : [],
  );
  const allowed = asking.length > 0 ? await askToSendConnections(asking) : false;
  if (allowed === undefined) return undefined;

  const labels = runnerLabels(
    checked.map((c) => ({ name: c.runner.name, ...('health' in c ? { region: c.health.region } : {}) })),
    [LOCAL_LABEL],
  );
  for (const [i, c] of checked.entries()) {
    const label = labels[i] ?? c.runner.name;
    const failed = (error: string, skipped: GroupPlace['skipped'] = []) =>
      prepared.failed.push({ label, kind: 'runner', runner: c.runner.name, error, skipped });
    if (!('routes' in c)) {
      failed(c.problem);
      continue;
    }
    const routes = await withSecrets(services, applyConsent(c.routes, c.runner.name, allowed));
    const share = runnerPlan(plan, routes);
    if (!share) {
      failed(
        `runner "${c.runner.name}" (${c.health.region}): none of the chosen targets can run there`,
        routes.flatMap((r) => (r.via === 'skip' ? [{ target: r.target, reason: r.reason }] : [])),
      );
      continue;
    }
    const limit = checkLimits(share.plan, c.health.limits, c.runner.name);
    if (limit) {
      failed(limit, share.skipped);
      continue;
    }
    const connections: Record<string, string> = {};
    for (const { target, secret } of share.send) {
      const url = await services.connections.get(secret);
      if (!url) continue;
      services.log.redactor.addSecret(url);
      prepared.secrets.push(url);
      connections[target] = url;
    }
    prepared.planned.push({
      place: runnerPlace({
        name: c.runner.name,
        url: c.runner.url,
        token: c.token,
        label,
        title: `runner "${c.runner.name}" (${c.health.region})`,
        ...(share.send.length > 0 ? { connections } : {}),
      }),
      plan: share.plan,
      skipped: share.skipped,
    });
  }
  return prepared;
}

async function check(
  services: Services,
  runner: RunnerSetting,
  plan: PlanSpec,
  localOnly: ReadonlySet<string>,
  secrets: string[],
): Promise<Checked> {
  const token = await services.runners.token(runner);
  if (!token.ok) return { runner, problem: token.problem };
  services.log.redactor.addSecret(token.token);
  secrets.push(token.token);
  const health = await checkRunnerHealth(runner.url, token.token);
  if (!health.ok)
    return { runner, problem: `runner "${runner.name}" did not answer its health check: ${health.problem}` };
  const secure = new URL(runner.url).protocol === 'https:' || isLoopback(new URL(runner.url).hostname);
  const routes = routeTargets(
    plan.targets,
    { name: runner.name, secure, env: runner.env, health: health.health },
    localOnly,
  );
  return { runner, token: token.token, health: health.health, routes };
}

/** A connection string to send must exist here: one missing from SecretStorage makes a skip. */
async function withSecrets(services: Services, routes: Route[]): Promise<Route[]> {
  return Promise.all(
    routes.map(async (r): Promise<Route> => {
      if (r.via !== 'connectionString' || (await services.connections.get(r.secret))) return r;
      return {
        target: r.target,
        via: 'skip',
        reason: `secret:${r.secret} is not in this VS Code's secret storage; run "DB Probe: Add Connection" and name it ${r.secret}`,
      };
    }),
  );
}
