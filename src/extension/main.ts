/**
 * DB Probe's extension entry. Activation only wires commands, views and the panel serializers:
 * nothing is read, no driver loads and the engine stays unloaded until the first probe, so the
 * editor pays almost nothing for having the extension installed.
 */
import * as vscode from 'vscode';
import { createRegistry } from '../drivers/registry';
import { threadPlace, type ThreadPlaceOptions } from '../places/threadPlace';
import { threadsPlace } from '../places/threadsPlace';
import { assertNever } from '../shared/assertNever';
import type { ExportFormat } from '../shared/formats';
import {
  addConnectionCommand,
  editConnectionCommand,
  removeConnectionCommand,
  type AddConnectionArgs,
} from './commands/connectionCommands';
import { clearNeonApiKeyCommand, setNeonApiKeyCommand } from './cold/neonKeyCommands';
import { demoCommand } from './commands/demoCommand';
import { copyMarkdownCommand, exportRunCommand } from './commands/exportRun';
import { importEnvCommand } from './commands/importEnv';
import { probeCommand } from './commands/probeCommand';
import { probeQueryCommand } from './commands/probeQuery';
import { addRunnerCommand, removeRunnerCommand, type AddRunnerArgs } from './commands/runners';
import { compareRunsCommand, deleteRunCommand, openRunCommand } from './commands/runs';
import { ConnectionStore } from './connections/connectionStore';
import { CONFIG_FILE, TargetProvider } from './config/targetProvider';
import { Log, describeError } from './log';
import { COMPARE_VIEW_TYPE, PanelManager, RUN_VIEW_TYPE } from './panel/panelManager';
import { Heartbeat, startHeartbeatCommand, stopHeartbeatCommand } from './heartbeat/heartbeat';
import { LensMemory } from './queries/lensMemory';
import { QUERY_LANGUAGES, QueryLensProvider, type ProbeQueryArgs } from './queries/queryLensProvider';
import { RunningProbes } from './probe/runningProbes';
import { RunStore } from './runs/runStore';
import { RunnerStore } from './runners/runnerStore';
import type { Services } from './services';
import type { TargetItem } from './views/targetsView';
import { RunsView } from './views/runsView';
import { LastRunStatus } from './views/statusBar';
import { TargetsView } from './views/targetsView';

export function activate(context: vscode.ExtensionContext): void {
  const log = new Log();
  const registry = createRegistry();
  const runs = new RunStore(context, () =>
    vscode.workspace.getConfiguration('dbprobe').get<number>('keepRuns', 100),
  );
  const targets = new TargetProvider(registry, log);
  const connections = new ConnectionStore(context.secrets, context.globalState);
  const runners = new RunnerStore(context.secrets);
  const secretsKnown = async () => runners.teach(await connections.teach(log.redactor));
  const panels = new PanelManager(context.extensionUri, runs, log, secretsKnown);
  // Local runs happen in a worker thread of their own (dist/probeWorker.js): the extension host only
  // renders, so the editor's work never lands in the figures and a run never freezes the editor.
  const local: ThreadPlaceOptions = {
    workerFile: vscode.Uri.joinPath(context.extensionUri, 'dist', 'probeWorker.js').fsPath,
    description: "a worker thread of the VS Code extension host, apart from the editor's event loop",
    location: { kind: 'local', label: 'this machine (VS Code, probe thread)' },
  };
  runningProbes = new RunningProbes();
  const services: Services = {
    context,
    running: runningProbes,
    registry,
    log,
    connections,
    secretsKnown,
    targets,
    runs,
    panels,
    // A load run that asks for more than one probing thread spreads over several (--threads).
    local: threadsPlace(threadPlace(local), { workerFile: local.workerFile, location: local.location }),
    coldLocal: (access) => threadPlace({ ...local, cold: access }),
    runners,
    builtInConnections: new Map(),
  };
  const status = new LastRunStatus(runs);
  const lensMemory = new LensMemory(context.workspaceState);
  const lenses = new QueryLensProvider(lensMemory);
  const heartbeat = new Heartbeat(services);
  context.subscriptions.push(log, runs, targets, panels, status, lensMemory, lenses, heartbeat);

  panels.setActionHandler((message, subject) => {
    switch (message.type) {
      case 'export':
        void guarded(log, () => exportRunCommand(services, message.format, subject));
        break;
      case 'copyMarkdown':
        void guarded(log, () => copyMarkdownCommand(services, subject));
        break;
      case 'openRun':
        void guarded(log, () => openRunCommand(services, subject));
        break;
      default:
        assertNever(message, 'panel action');
    }
  });

  const commands: Record<string, (...args: never[]) => Promise<unknown>> = {
    'dbprobe.probe': () => probeCommand(services),
    'dbprobe.probeTarget': (item?: TargetItem) =>
      probeCommand(services, item ? [item.target.spec.name] : undefined),
    'dbprobe.probeQuery': (args?: ProbeQueryArgs) => probeQueryCommand(services, lensMemory, args),
    'dbprobe.startHeartbeat': () => startHeartbeatCommand(services),
    'dbprobe.stopHeartbeat': () => stopHeartbeatCommand(),
    'dbprobe.addConnection': (args?: AddConnectionArgs) => addConnectionCommand(services, args),
    'dbprobe.editConnection': (item?: { name?: string }) => editConnectionCommand(services, item),
    'dbprobe.removeConnection': (item?: { name?: string }) => removeConnectionCommand(services, item),
    'dbprobe.setNeonApiKey': () => setNeonApiKeyCommand(services),
    'dbprobe.clearNeonApiKey': () => clearNeonApiKeyCommand(services),
    'dbprobe.importEnv': (uri?: vscode.Uri) => importEnvCommand(services, uri),
    'dbprobe.addRunner': (args?: AddRunnerArgs) => addRunnerCommand(services, args),
    'dbprobe.removeRunner': (item?: { name?: string }) => removeRunnerCommand(services, item),
    'dbprobe.tryDemo': () => demoCommand(services),
    'dbprobe.openRun': (arg?: unknown) => openRunCommand(services, arg),
    'dbprobe.compareRuns': (arg?: unknown, selected?: unknown[]) =>
      compareRunsCommand(services, arg, selected),
    'dbprobe.deleteRun': (arg?: unknown) => deleteRunCommand(services, arg),
    'dbprobe.exportMarkdown': (arg?: unknown) =>
      exportRunCommand(services, 'markdown' satisfies ExportFormat, arg),
    'dbprobe.exportJson': (arg?: unknown) => exportRunCommand(services, 'json', arg),
    'dbprobe.exportCsv': (arg?: unknown) => exportRunCommand(services, 'csv', arg),
    'dbprobe.copyMarkdown': (arg?: unknown) => copyMarkdownCommand(services, arg),
    'dbprobe.openConfig': () => openConfigFile(registry.ids()[0] ?? 'pg'),
    'dbprobe.showLog': async () => log.show(),
    'dbprobe.refresh': async () => targets.invalidate(),
  };
  for (const [id, handler] of Object.entries(commands)) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (...args: unknown[]) =>
        guarded(log, () => (handler as (...a: unknown[]) => Promise<unknown>)(...args)),
      ),
    );
  }

  context.subscriptions.push(
    vscode.window.createTreeView('dbprobe.targets', {
      treeDataProvider: new TargetsView(targets, runs, registry),
      showCollapseAll: false,
    }),
    vscode.window.createTreeView('dbprobe.runs', {
      treeDataProvider: new RunsView(runs),
      canSelectMany: true,
    }),
    vscode.languages.registerCodeLensProvider(
      QUERY_LANGUAGES.map((language) => ({ language })),
      lenses,
    ),
    vscode.window.registerWebviewPanelSerializer(RUN_VIEW_TYPE, panels.serializer()),
    vscode.window.registerWebviewPanelSerializer(COMPARE_VIEW_TYPE, panels.serializer()),
  );
  // After activation returns: reading the run index must not count against activation time.
  setTimeout(() => void status.update(), 0);
  // Off by default: reading the setting is all a disabled heartbeat costs.
  setTimeout(() => void heartbeat.reconcile(), 0);
}

/** Runs under way in this window: stopped, and their partial results saved, when it closes. */
let runningProbes: RunningProbes | undefined;

/** How long runs get to stop and save when the window closes: VS Code ends the host after about 5 s. */
const SAVE_ON_CLOSE_MS = 4_000;

export async function deactivate(): Promise<void> {
  // A reload or close during a run is a Cancel: the run keeps what it measured and saves it, and a
  // panel restored in the new window shows it. The engine closes its connections as it stops.
  await runningProbes?.stopAll(SAVE_ON_CLOSE_MS);
}

/** A command that throws says so to the user, in words and redacted, and logs the detail. */
async function guarded(log: Log, run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    log.error('command failed', error);
    void vscode.window.showErrorMessage(
      `DB Probe: ${describeError(error, log.redactor)}. See the DB Probe output for details.`,
    );
    return undefined;
  }
}

async function openConfigFile(exampleDriver: string): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    void vscode.window.showInformationMessage(
      `DB Probe: open a folder first; ${CONFIG_FILE} lives at its root. Without one, targets live in your user settings (dbprobe.targets).`,
    );
    return;
  }
  const uri = vscode.Uri.joinPath(folder.uri, CONFIG_FILE);
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    // The schema comes through the manifest's jsonValidation, so completion works without $schema.
    const starter = { targets: [{ name: 'my-db', driver: exampleDriver, connection: 'secret:my-db' }] };
    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode(JSON.stringify(starter, null, 2) + '\n'),
    );
  }
  await vscode.window.showTextDocument(uri);
}
