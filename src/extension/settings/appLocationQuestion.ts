/**
 * On the first probe in a workspace: "where does your app run?", asked once, in a notification that
 * does not hold the run up. The answer goes into the one app location (appLocationChoices.ts), in
 * the workspace's settings; open panels redraw for it as for any change of the setting.
 */
import * as vscode from 'vscode';
import type { Services } from '../services';
import {
  answerSetting,
  APP_LOCATION_ASKED,
  APP_LOCATION_CHOICES,
  shouldAskAppLocation,
  type AppLocationChoice,
} from './appLocationChoices';

/** Buttons of the notification: the choice's label, its RTT beside it. */
const BUTTONS: Record<string, string> = {
  'Same region as the database': 'Same region (~1 ms)',
  Nearby: 'Nearby (~10 ms)',
  Far: 'Far (~40-80 ms)',
  'Where a runner runs…': 'A runner place…',
  'I don’t know': 'I don’t know',
};

export async function askAppLocationOnce(services: Services): Promise<void> {
  const state = services.context.workspaceState;
  const config = vscode.workspace.getConfiguration('dbprobe');
  const set = (setting: string) => {
    const inspected = config.inspect(setting);
    return [inspected?.globalValue, inspected?.workspaceValue, inspected?.workspaceFolderValue].some(
      (v) => v !== undefined && v !== null && v !== '',
    );
  };
  if (!shouldAskAppLocation(state.get<boolean>(APP_LOCATION_ASKED) === true, set)) return;
  // Asked once: marked before the answer, so a second probe while this one is open asks nothing.
  await state.update(APP_LOCATION_ASKED, true);
  const picked = await vscode.window.showInformationMessage(
    'DB Probe: where does your app run? The verdict answers for it first (dbprobe.appRttMs, this workspace).',
    ...APP_LOCATION_CHOICES.map((c) => BUTTONS[c.label] ?? c.label),
  );
  const choice = APP_LOCATION_CHOICES.find((c) => (BUTTONS[c.label] ?? c.label) === picked);
  if (!choice) return;
  await store(services, choice);
}

async function store(services: Services, choice: AppLocationChoice): Promise<void> {
  const place =
    choice.answer.kind === 'place'
      ? await vscode.window.showInputBox({
          title: 'DB Probe: the runner place where your app runs',
          prompt: 'The region a runner reports (e.g. eu-west-1): its runs measure the RTT to each target',
          ignoreFocusOut: true,
        })
      : undefined;
  const write = answerSetting(choice.answer, place);
  if (!write) return;
  // No folder open: there is no workspace to keep it in, so the user's settings keep it.
  const target = vscode.workspace.workspaceFolders
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration('dbprobe').update(write.setting, write.value, target);
  services.log.info(`where the app runs: dbprobe.${write.setting} = ${write.value}`);
}
