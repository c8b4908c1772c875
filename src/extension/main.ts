/**
 * DB Probe's extension entry: a small bundle that registers commands, views, the CodeLens provider
 * and the panel serializers, and nothing else. Every command, the Targets view's items, a restored
 * panel and a heartbeat that is turned on load the rest (body.ts, its own bundle) on first use, so
 * the editor pays almost nothing at start-up for having the extension installed.
 */
import * as vscode from 'vscode';
import type { ExtensionBody, Shell } from './body';
import { bodyIfLoaded, loadBody } from './loadBody';
import { Log, describeError } from './log';
import { QueryContext } from './editorContext/queryContext';
import { COMPARE_VIEW_TYPE, RUN_VIEW_TYPE } from './panel/viewTypes';
import { LensMemory } from './queries/lensMemory';
import { QUERY_LANGUAGES, QueryLensProvider } from './queries/queryLensProvider';
import { RunStore } from './runs/runStore';
import { affectsAppLocation, appLocationKey } from './settings/projectionSettings';
import { LazyTreeProvider } from './views/lazyTree';
import { RunsView } from './views/runsView';
import { LastRunStatus } from './views/statusBar';

/** Commands the body handles (body.ts's table): registered here, loaded when first run. */
const BODY_COMMANDS = [
  'dbprobe.probe',
  'dbprobe.probeTarget',
  'dbprobe.probeQuery',
  'dbprobe.startHeartbeat',
  'dbprobe.stopHeartbeat',
  'dbprobe.addConnection',
  'dbprobe.editConnection',
  'dbprobe.removeConnection',
  'dbprobe.setNeonApiKey',
  'dbprobe.clearNeonApiKey',
  'dbprobe.importEnv',
  'dbprobe.addRunner',
  'dbprobe.removeRunner',
  'dbprobe.tryDemo',
  'dbprobe.openRun',
  'dbprobe.compareRuns',
  'dbprobe.deleteRun',
  'dbprobe.exportMarkdown',
  'dbprobe.exportJson',
  'dbprobe.exportCsv',
  'dbprobe.copyMarkdown',
  'dbprobe.openConfig',
  'dbprobe.refresh',
] as const;

export function activate(context: vscode.ExtensionContext): void {
  const log = new Log();
  const runs = new RunStore(context, () =>
    vscode.workspace.getConfiguration('dbprobe').get<number>('keepRuns', 100),
  );
  const lensMemory = new LensMemory(context.workspaceState);
  const shell: Shell = { context, log, runs, lensMemory, guarded: (run) => guarded(log, run) };
  const body = (): Promise<ExtensionBody> => loadBody(shell);
  const status = new LastRunStatus(runs, lensMemory);
  const lenses = new QueryLensProvider(
    lensMemory,
    runs,
    (line) => log.warn(line),
    async (result, options) => (await body()).judgeRun(result, options),
    async (text, languageId) => (await body()).fileDriverIds(text, languageId),
  );
  const targetsView = new LazyTreeProvider(async () => (await body()).targetsView);
  // Where "Probe This Query" applies (menus, palette, keybinding): see editorContext/queryContext.ts.
  context.subscriptions.push(log, runs, status, lensMemory, lenses, targetsView, new QueryContext());

  for (const id of BODY_COMMANDS) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (...args: unknown[]) =>
        guarded(log, async () => {
          const handler = (await body()).commands[id] as ((...a: unknown[]) => Promise<unknown>) | undefined;
          if (!handler)
            throw new Error(vscode.l10n.t('command {0} is missing from this build; reinstall DB Probe', id));
          return handler(...args);
        }),
      ),
    );
  }
  context.subscriptions.push(
    vscode.commands.registerCommand('dbprobe.showLog', () => log.show()),
    vscode.commands.registerCommand('dbprobe.lensOtherTargets', (key: unknown) => lenses.showOthers(key)),
    vscode.window.createTreeView('dbprobe.targets', {
      treeDataProvider: targetsView,
      showCollapseAll: false,
    }),
    vscode.window.createTreeView('dbprobe.runs', {
      treeDataProvider: new RunsView(runs, lensMemory),
      canSelectMany: true,
    }),
    vscode.languages.registerCodeLensProvider(
      QUERY_LANGUAGES.map((language) => ({ language })),
      lenses,
    ),
  );
  const serializer: vscode.WebviewPanelSerializer = {
    deserializeWebviewPanel: async (panel, state: unknown) => (await body()).restorePanel(panel, state),
  };
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(RUN_VIEW_TYPE, serializer),
    vscode.window.registerWebviewPanelSerializer(COMPARE_VIEW_TYPE, serializer),
    // A heartbeat turned on later loads the body; once loaded, the heartbeat follows its settings.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!bodyIfLoaded() && e.affectsConfiguration('dbprobe.heartbeat') && heartbeatOn())
        void guarded(log, body);
      // The Runs view's rows and the status bar lead with the verdict for where the app runs.
      if (affectsAppLocation(e)) void guarded(log, async () => (await body()).rejudgeRuns());
    }),
  );
  // A location changed while no window was open: the rows saved for the old one are judged again,
  // after activation (the body loads only when a row is stale).
  setTimeout(
    () =>
      void guarded(log, async () => {
        if (await runs.staleVerdicts(appLocationKey())) await (await body()).rejudgeRuns();
      }),
    0,
  );
  // After activation returns: reading the run index must not count against activation time.
  setTimeout(() => void status.update(), 0);
  // Off by default: reading the setting is all a disabled heartbeat costs (the body stays unloaded).
  if (heartbeatOn()) setTimeout(() => void guarded(log, body), 0);
}

function heartbeatOn(): boolean {
  return vscode.workspace.getConfiguration('dbprobe.heartbeat').get<boolean>('enabled', false);
}

/** How long runs get to stop and save when the window closes: VS Code ends the host after about 5 s. */
const SAVE_ON_CLOSE_MS = 4_000;

export async function deactivate(): Promise<void> {
  // A reload or close during a run is a Cancel: the run keeps what it measured and saves it, and a
  // panel restored in the new window shows it. The engine closes its connections as it stops.
  await bodyIfLoaded()?.stopAll(SAVE_ON_CLOSE_MS);
}

/** A command that throws says so to the user, in words and redacted, and logs the detail. */
async function guarded(log: Log, run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    log.error('command failed', error);
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        'DB Probe: {0}. See the DB Probe output for details.',
        describeError(error, log.redactor),
      ),
    );
    return undefined;
  }
}
