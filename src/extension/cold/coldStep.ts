/**
 * The step the probe command takes before a run with the `cold` kind: every question is asked here,
 * before any connection is opened, so the run itself waits for nobody. It settles how each target is
 * made cold (asking for targets without `cold` settings), finds the Neon API key (secret storage,
 * then the environment) and the project/endpoint ids (settings, the connection string's host, an
 * earlier answer, else a question), and shows each suspend command for confirmation before its first
 * run, in a trusted workspace only. What it allows is plain data (ColdAccess) the run turns into a
 * preparer wherever the engine runs.
 */
import * as vscode from 'vscode';
import type { ColdAccess } from '../../cold/access';
import { DEFAULT_NEON_KEY_REFERENCE } from '../../cold/preparer';
import { COLD_DEFAULTS, type ColdTargetSpec, type PlanSpec, type TargetSpec } from '../../shared/plan';
import { describeError } from '../log';
import type { PreparedPlaces } from '../probe/preparePlaces';
import { createResolver } from '../probe/resolver';
import type { Services } from '../services';
import { commandKey, NEON_ID, neonIdsOf, showCommand, withNeonIds } from './coldTargets';
import { askNeonApiKey } from './neonKeyCommands';
import { NeonKeyStore, resolveNeonKey } from './neonKeyStore';

const CHOSEN_MODES = 'dbprobe.coldModes';
const NEON_IDS = 'dbprobe.neonIds';
const CONFIRMED_COMMANDS = 'dbprobe.confirmedSuspendCommands';
const UNTRUSTED = 'the workspace is not trusted; suspend commands run only in a trusted workspace';

export interface ColdStep {
  plan: PlanSpec;
  access: ColdAccess;
  /** Secrets the step resolved (API keys), for the run's Redactor. */
  secrets: string[];
}

type NeonIdMemory = Record<string, { projectId?: string; endpointId?: string }>;

/** undefined when the user cancelled a question: the run does not start. */
export async function prepareColdStep(services: Services, plan: PlanSpec): Promise<ColdStep | undefined> {
  const access: ColdAccess = {
    neonApiKeys: {},
    allowCommands: vscode.workspace.isTrusted,
    ...(vscode.workspace.isTrusted ? {} : { commandsRefusedBecause: UNTRUSTED }),
  };
  if (!plan.kinds.includes('cold')) return { plan, access, secrets: [] };
  const targets: TargetSpec[] = [];
  for (const target of plan.targets) {
    const cold = target.cold ?? (await chooseMode(services, target));
    if (!cold) return undefined;
    targets.push({ ...target, cold });
  }
  const secrets: string[] = [];
  const ready: TargetSpec[] = [];
  for (const target of targets) {
    switch (target.cold?.mode) {
      case 'neon-api': {
        const done = await prepareNeon(services, target, access, secrets);
        if (!done) return undefined;
        ready.push(done);
        break;
      }
      case 'command':
        if (!(await confirmCommand(services, target, plan))) return undefined;
        ready.push(target);
        break;
      default:
        ready.push(target);
    }
  }
  return { plan: { ...plan, targets: ready }, access, secrets };
}

/** A target without `cold` settings: ask how to make it cold, remembered per workspace and target. */
async function chooseMode(services: Services, target: TargetSpec): Promise<ColdTargetSpec | undefined> {
  const state = services.context.workspaceState;
  const remembered = state.get<Record<string, ColdTargetSpec>>(CHOSEN_MODES) ?? {};
  const known = remembered[target.name];
  if (known) {
    services.log.info(`target "${target.name}" is made cold by ${known.mode} (chosen earlier)`);
    return known;
  }
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: 'Suspend through the Neon API',
        detail:
          'Suspends the Neon endpoint, waits until Neon reports it idle, then connects (needs a Neon API key)',
        mode: 'neon-api' as const,
      },
      {
        label: 'Wait until it has been idle',
        detail: 'For providers that sleep after a time without traffic: waits that long before each sample',
        mode: 'idle-wait' as const,
      },
    ],
    {
      title: `Cold probe: how should "${target.name}" be made cold?`,
      placeHolder: 'A suspend command (a provider CLI) can be set in the target\'s "cold" settings instead',
      ignoreFocusOut: true,
    },
  );
  if (!picked) return undefined;
  let cold: ColdTargetSpec = { mode: picked.mode };
  if (picked.mode === 'idle-wait') {
    const minutes = await vscode.window.showInputBox({
      title: `Cold probe: idle time of "${target.name}"`,
      prompt:
        'Minutes without traffic after which this database sleeps (the provider documents it, e.g. 5 for Neon free computes)',
      value: '5',
      ignoreFocusOut: true,
      validateInput: (text) =>
        /^\d{1,4}(\.\d{1,2})?$/.test(text.trim()) && Number(text) > 0 && Number(text) <= 1440
          ? undefined
          : 'A number of minutes between 0.01 and 1440',
    });
    if (minutes === undefined) return undefined;
    cold = { mode: 'idle-wait', idleMs: Math.round(Number(minutes) * 60_000) };
  }
  await state.update(CHOSEN_MODES, { ...remembered, [target.name]: cold });
  return cold;
}

async function prepareNeon(
  services: Services,
  target: TargetSpec,
  access: ColdAccess,
  secrets: string[],
): Promise<TargetSpec | undefined> {
  const reference = target.cold?.neon?.apiKey ?? DEFAULT_NEON_KEY_REFERENCE;
  if (!access.neonApiKeys[reference]) {
    const stored = await new NeonKeyStore(services.context.secrets).get();
    const key =
      resolveNeonKey(reference, stored, process.env) ??
      (await askNeonApiKey(
        services,
        `Target "${target.name}" is suspended through Neon's API before each cold sample, and no API key is stored${reference.startsWith('env:') ? ` or in ${reference.slice(4)}` : ''}.`,
      ));
    if (!key) return undefined;
    services.log.redactor.addSecret(key);
    access.neonApiKeys[reference] = key;
    secrets.push(key);
  }

  const memory = services.context.globalState.get<NeonIdMemory>(NEON_IDS) ?? {};
  const found = neonIdsOf(target.cold?.neon, await connectionOf(services, target), memory[target.name] ?? {});
  const endpointId =
    found.endpointId ??
    (await askId(
      `Cold probe: Neon endpoint of "${target.name}"`,
      "The connection string's host does not name a Neon endpoint (ep-...). Its endpoint id: Neon console > project > Computes (or the host of its connection string).",
      'ep-cool-darkness-123456',
    ));
  if (!endpointId) return undefined;
  const projectId =
    found.projectId ??
    (await askId(
      `Cold probe: Neon project of "${target.name}"`,
      `Neon's API needs the project id to suspend endpoint ${endpointId}: Neon console > project > Settings > General. Remembered for this target.`,
      'cool-project-123456',
    ));
  if (!projectId) return undefined;
  if (found.endpointFrom)
    services.log.info(`target "${target.name}": Neon endpoint ${endpointId} from the ${found.endpointFrom}`);
  await services.context.globalState.update(NEON_IDS, {
    ...memory,
    [target.name]: { projectId, endpointId },
  });
  return withNeonIds(target, { projectId, endpointId });
}

async function askId(title: string, prompt: string, placeHolder: string): Promise<string | undefined> {
  const value = await vscode.window.showInputBox({
    title,
    prompt,
    placeHolder,
    ignoreFocusOut: true,
    validateInput: (text) =>
      NEON_ID.test(text.trim())
        ? undefined
        : 'Letters, digits, "-" and "_" only, as the Neon console shows it',
  });
  return value?.trim() || undefined;
}

/** The connection string, to read a Neon endpoint from its host; undefined when it cannot be had. */
async function connectionOf(services: Services, target: TargetSpec): Promise<string | undefined> {
  const resolve = createResolver({
    connections: services.connections,
    env: process.env,
    builtIn: services.builtInConnections,
    redactors: [services.log.redactor],
  });
  try {
    return await resolve(target);
  } catch (error) {
    services.log.info(
      `target "${target.name}": no connection string to read a Neon endpoint from (${describeError(error, services.log.redactor)})`,
    );
    return undefined;
  }
}

/**
 * A suspend command runs a program on this machine: only in a trusted workspace, and only after the
 * user has seen the exact command once (a changed command asks again).
 */
async function confirmCommand(services: Services, target: TargetSpec, plan: PlanSpec): Promise<boolean> {
  const command = target.cold?.command ?? [];
  const shown = showCommand(command);
  if (!vscode.workspace.isTrusted) {
    const TRUST = 'Manage Workspace Trust';
    const choice = await vscode.window.showWarningMessage(
      `DB Probe: target "${target.name}" is made cold by a suspend command, and suspend commands run only in a trusted workspace.`,
      {
        modal: true,
        detail: `The command would be:\n\n${shown}\n\nTrust this workspace to run it, or give the target another cold mode (idle-wait, neon-api).`,
      },
      TRUST,
    );
    if (choice === TRUST) await vscode.commands.executeCommand('workbench.trust.manage');
    return false;
  }
  const state = services.context.workspaceState;
  const confirmed = state.get<string[]>(CONFIRMED_COMMANDS) ?? [];
  const key = commandKey(target.name, command);
  if (confirmed.includes(key)) return true;
  const RUN = 'Run It Before Each Cold Sample';
  const samples = (plan.cold ?? COLD_DEFAULTS).samples;
  const choice = await vscode.window.showWarningMessage(
    `DB Probe: target "${target.name}" runs a command on this machine to make the database cold.`,
    {
      modal: true,
      detail: `Before each of its ${samples} cold samples this runs, as you, without a shell:\n\n${shown}\n\nAllow it only if you wrote it or recognise it. You are asked again if the command changes.`,
    },
    RUN,
  );
  if (choice !== RUN) return false;
  await state.update(CONFIRMED_COMMANDS, [...confirmed, key]);
  services.log.info(
    `target "${target.name}": suspend command confirmed: ${services.log.redactor.redact(shown)}`,
  );
  return true;
}

/** The run's places with this machine's made able to suspend (Neon API, commands) as the step allowed. */
export function withColdAccess(services: Services, prepared: PreparedPlaces, step: ColdStep): PreparedPlaces {
  if (!step.plan.kinds.includes('cold')) return prepared;
  return {
    ...prepared,
    planned: prepared.planned.map((p) =>
      p.place.id === services.local.id ? { ...p, place: services.coldLocal(step.access) } : p,
    ),
    secrets: [...prepared.secrets, ...step.secrets],
  };
}
