/**
 * "DB Probe: Probe Database Latency": targets (multi-select, remembering the last choice) -> probe
 * kinds -> where to run (this machine and any runners, several at once) -> a cancellable run. With
 * no targets, offers to add one or try the demo.
 */
import * as vscode from 'vscode';
import { PLAN_DEFAULTS, PROBE_KINDS, type ProbeKind } from '../../shared/plan';
import { prepareColdStep, withColdAccess } from '../cold/coldStep';
import { buildPlan } from '../config/planSettings';
import type { ResolvedTarget } from '../config/targetSources';
import { describeSource } from '../config/targetSources';
import { consentToWorkspaceTargets } from '../probe/consent';
import { preparePlaces } from '../probe/preparePlaces';
import { missingSecrets } from '../probe/resolver';
import { runPlaces } from '../probe/runProbe';
import { LOCAL_PLACE_ID, placeChoices, type PlaceChoice } from '../runners/placeChoices';
import type { Services } from '../services';

const LAST_TARGETS = 'dbprobe.lastTargets';
const LAST_KINDS = 'dbprobe.lastKinds';
const LAST_PLACES = 'dbprobe.lastPlaces';

/** What each kind pays for, in the picker; a kind the engine adds without a line here is a type error. */
const KIND_DETAILS: Record<ProbeKind, string> = {
  initial: 'New client, new connection, first query: what a serverless function or a cold request waits',
  subsequent: 'One warm connection, repeated queries: what each further query of a request waits',
  cold: 'First connection after the database was suspended (Neon API), left idle, or stopped by your command; a hot connect follows each',
  schedule:
    'Simulated app requests: 10 per second for 60 s, each a new connection running 3 queries (the serverless-latency blog)',
  load: 'Concurrency sweep: 1, 2, 4, 8, 16 connections back to back, 10 s each: throughput and where it stops keeping up',
};

export async function probeCommand(services: Services, only?: string[]): Promise<void> {
  const snapshot = await services.targets.get();
  if (snapshot.targets.length === 0) return offerFirstTarget();
  for (const problem of snapshot.fileProblems) void vscode.window.showWarningMessage(`DB Probe: ${problem}`);

  const usable = snapshot.targets.filter((t) => t.issues.length === 0);
  const broken = snapshot.targets.filter((t) => t.issues.length > 0);
  for (const t of broken)
    services.log.warn(
      `target "${t.spec.name}" (${describeSource(t.source)}) is skipped: ${t.issues.join('; ')}`,
    );
  if (usable.length === 0) {
    void vscode.window.showErrorMessage(
      `DB Probe: none of the ${broken.length} targets can run: ${broken[0]?.spec.name}: ${broken[0]?.issues[0]}. Fix them in ${describeSource(broken[0]?.source ?? 'user')}; the DB Probe output lists every problem.`,
    );
    return;
  }

  const chosen = only
    ? usable.filter((t) => only.includes(t.spec.name))
    : await pickTargets(services, usable, broken.length);
  if (!chosen || chosen.length === 0) return;
  const kinds = await pickKinds(services);
  if (!kinds) return;
  const places = await pickPlaces(services);
  if (!places) return;

  const defaultQuery = (driver: string) =>
    services.registry.info(driver)?.defaultQuery ?? 'the driver default';
  if (!(await consentToWorkspaceTargets(chosen, defaultQuery))) return;

  let targets = chosen;
  // A runner may hold a connection in its own environment; only this machine needs every secret here.
  const local = places.some((p) => p.id === LOCAL_PLACE_ID);
  const missing = !local
    ? []
    : await missingSecrets(
        targets.map((t) => t.spec),
        {
          connections: services.connections,
          env: process.env,
          builtIn: services.builtInConnections,
          redactors: [],
        },
      );
  if (missing.length > 0) {
    const ADD = 'Add Connection';
    const OTHERS = 'Probe the Others';
    const others = targets.filter((t) => !missing.some((m) => t.spec.connection === `secret:${m}`));
    const choice = await vscode.window.showWarningMessage(
      `DB Probe: ${missing.map((m) => `secret:${m}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in this VS Code's secret storage, so ${missing.length === 1 ? 'its targets' : 'their targets'} cannot connect. Add the connection string first, or probe the other targets.`,
      ...(others.length > 0 ? [ADD, OTHERS] : [ADD]),
    );
    if (choice === ADD) {
      const first = targets.find((t) => t.spec.connection === `secret:${missing[0]}`);
      await vscode.commands.executeCommand('dbprobe.addConnection', {
        name: missing[0],
        driver: first?.spec.driver,
      });
      return;
    }
    if (choice !== OTHERS) return;
    targets = others;
  }

  const plan = buildPlan(
    targets.map((t) => t.spec),
    kinds,
    services.targets.planSettings(),
    snapshot.fileConfig,
    services.registry.ids(),
  );
  if (!plan.ok) {
    void vscode.window.showErrorMessage(
      `DB Probe: the probe settings have problems: ${plan.problem}. Fix the dbprobe.* settings or dbprobe.json.`,
    );
    return;
  }
  // Every question of the cold kind (API key, ids, suspend commands) before any connection opens.
  const cold = await prepareColdStep(services, plan.plan);
  if (!cold) return;
  const prepared = await preparePlaces(services, cold.plan, places);
  if (!prepared) return;
  await runPlaces(services, withColdAccess(services, prepared, cold));
}

async function pickTargets(
  services: Services,
  usable: ResolvedTarget[],
  brokenCount: number,
): Promise<ResolvedTarget[] | undefined> {
  const state = services.context.workspaceState;
  const remembered = state.get<string[]>(LAST_TARGETS) ?? [];
  const anyRemembered = usable.some((t) => remembered.includes(t.spec.name));
  const items = usable.map((t) => ({
    label: t.spec.name,
    description: `${t.spec.driver} · ${describeSource(t.source)}`,
    detail: t.spec.query ? `query: ${t.spec.query}` : undefined,
    picked: anyRemembered ? remembered.includes(t.spec.name) : true,
    target: t,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: 'Probe database latency (1/3): targets',
    placeHolder: `Targets to probe${brokenCount > 0 ? ` (${brokenCount} with problems are left out; see the Targets view)` : ''}`,
    ignoreFocusOut: true,
  });
  if (!picked || picked.length === 0) return undefined;
  await state.update(
    LAST_TARGETS,
    picked.map((p) => p.label),
  );
  return picked.map((p) => p.target);
}

async function pickKinds(services: Services): Promise<ProbeKind[] | undefined> {
  const state = services.context.workspaceState;
  const remembered = (state.get<string[]>(LAST_KINDS) ?? []).filter((k): k is ProbeKind =>
    (PROBE_KINDS as readonly string[]).includes(k),
  );
  const defaults: readonly ProbeKind[] = remembered.length > 0 ? remembered : PLAN_DEFAULTS.kinds;
  const picked = await vscode.window.showQuickPick(
    PROBE_KINDS.map((kind) => ({ label: kind, detail: KIND_DETAILS[kind], picked: defaults.includes(kind) })),
    {
      canPickMany: true,
      title: 'Probe database latency (2/3): probe kinds',
      placeHolder: 'What each sample measures',
      ignoreFocusOut: true,
    },
  );
  if (!picked || picked.length === 0) return undefined;
  const kinds = picked.map((p) => p.label);
  await state.update(LAST_KINDS, kinds);
  return kinds;
}

/** This machine and every configured runner, several at once; skipped while there is no runner. */
async function pickPlaces(services: Services): Promise<PlaceChoice[] | undefined> {
  const { runners, problems } = services.runners.read();
  for (const problem of problems) services.log.warn(`runner setting skipped: ${problem}`);
  if (problems.length > 0 && runners.length === 0)
    void vscode.window.showWarningMessage(`DB Probe: ${problems[0]}. Probing from this machine only.`);
  const withToken = new Set(
    (
      await Promise.all(runners.map(async (r) => ((await services.runners.stored(r.name)) ? r.name : '')))
    ).filter(Boolean),
  );
  const state = services.context.workspaceState;
  const choices = placeChoices(runners, state.get<string[]>(LAST_PLACES), (name) => withToken.has(name));
  // One place to run needs no question; runners add more and bring the step back.
  if (runners.length === 0) return choices.filter((c) => c.id === LOCAL_PLACE_ID);
  const picked = await vscode.window.showQuickPick(
    choices.map((c) => ({ ...c, choice: c })),
    {
      canPickMany: true,
      title: 'Probe database latency (3/3): where to run',
      placeHolder: 'Pick several to see them side by side ("from this machine" vs "from us-east-1")',
      ignoreFocusOut: true,
    },
  );
  if (!picked || picked.length === 0) return undefined;
  await state.update(
    LAST_PLACES,
    picked.map((p) => p.id),
  );
  return picked.map((p) => p.choice);
}

async function offerFirstTarget(): Promise<void> {
  const ADD = 'Add Connection';
  const DEMO = 'Try the Demo Database';
  const IMPORT = 'Import from .env';
  const choice = await vscode.window.showInformationMessage(
    "DB Probe: there is no database to probe yet. Add a connection (kept in VS Code's secret storage), import them from a .env file, or try an embedded demo database.",
    ADD,
    IMPORT,
    DEMO,
  );
  if (choice === ADD) await vscode.commands.executeCommand('dbprobe.addConnection');
  if (choice === IMPORT) await vscode.commands.executeCommand('dbprobe.importEnv');
  if (choice === DEMO) await vscode.commands.executeCommand('dbprobe.tryDemo');
}
