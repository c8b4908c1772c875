/**
 * The extension's body: everything it does beyond registering itself (main.ts, the shell): the
 * stores, the panels, the probe commands, the heartbeat. Built into its own bundle
 * (dist/extensionBody.js) that main.ts loads on first use (loadBody.ts), so activation parses none of it.
 */
import * as vscode from 'vscode';
import { createRegistry } from '../drivers/registry';
import { probeThreadPlace, type ProbeThreadPlaceOptions } from '../places/probeThreadPlace';
import { spreadThreadsPlace } from '../places/spreadThreadsPlace';
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
import type { Log } from './log';
import { PanelManager } from './panel/panelManager';
import { Heartbeat, startHeartbeatCommand, stopHeartbeatCommand } from './heartbeat/heartbeat';
import type { LensMemory } from './queries/lensMemory';
import type { ProbeQueryArgs } from './queries/queryLensProvider';
import { RunningProbes } from './probe/runningProbes';
import type { RunStore } from './runs/runStore';
import { verdictJudge } from './runs/runVerdicts';
import { RunnerStore } from './runners/runnerStore';
import type { Services } from './services';
import { judgeRun } from '../shared/judgement/judgeRun';
import { fileDriverHints } from './queries/fileDrivers';
import { TargetsView, type TargetItem } from './views/targetsView';
import { workspacePackageLookup } from './workspacePackages';

/** What activation built and hands over: the few objects the entry bundle needs itself. */
export interface Shell {
  context: vscode.ExtensionContext;
  log: Log;
  runs: RunStore;
  lensMemory: LensMemory;
  /** Shows an error the way every command does (main.ts's guarded). */
  guarded(run: () => Promise<unknown>): Promise<unknown>;
}

export interface ExtensionBody {
  /** The shared judgement, for the CodeLens (in the activation bundle, which must not carry it). */
  judgeRun: typeof judgeRun;
  /** The drivers a file imports (fileDrivers.ts), for the CodeLens: the driver catalog stays out of the entry. */
  fileDriverIds(text: string, languageId: string): string[];
  /** Command id -> handler, for every command main.ts registers but does not handle itself. */
  commands: Record<string, (...args: never[]) => Promise<unknown>>;
  targetsView: vscode.TreeDataProvider<TargetItem>;
  restorePanel(panel: vscode.WebviewPanel, state: unknown): void;
  /** Judges the saved runs again for the app location now set (the Runs view's rows, the status bar). */
  rejudgeRuns(): Promise<void>;
  /** Stops runs under way and saves what they measured (the window is closing): how many did not stop. */
  stopAll(withinMs: number): Promise<number>;
}

export function createBody(shell: Shell): ExtensionBody {
  const { context, log, runs, lensMemory, guarded } = shell;
  // The heartbeat probes in this process: it too measures the trusted workspace's own drivers.
  const registry = createRegistry(undefined, workspacePackageLookup);
  const targets = new TargetProvider(registry, log);
  const connections = new ConnectionStore(context.secrets, context.globalState);
  const runners = new RunnerStore(context.secrets);
  const secretsKnown = async () => runners.teach(await connections.teach(log.redactor));
  const panels = new PanelManager(context.extensionUri, runs, log, secretsKnown);
  // Local runs happen in a worker thread of their own (dist/probeWorker.js): the extension host only
  // renders, so the editor's work never lands in the figures and a run never freezes the editor.
  const local: ProbeThreadPlaceOptions = {
    threadEntryFile: vscode.Uri.joinPath(context.extensionUri, 'dist', 'probeWorker.js').fsPath,
    description: "a worker thread of the VS Code extension host, apart from the editor's event loop",
    location: { kind: 'local', label: 'this machine (VS Code, probe thread)' },
    packages: workspacePackageLookup,
  };
  const running = new RunningProbes();
  const services: Services = {
    context,
    running,
    registry,
    log,
    connections,
    secretsKnown,
    targets,
    runs,
    panels,
    // A load run that asks for more than one probing thread spreads over several (--threads).
    local: spreadThreadsPlace(probeThreadPlace(local), {
      threadEntryFile: local.threadEntryFile,
      location: local.location,
      packages: workspacePackageLookup,
    }),
    coldLocal: (access) => probeThreadPlace({ ...local, cold: access }),
    runners,
    builtInConnections: new Map(),
  };
  const heartbeat = new Heartbeat(services);
  context.subscriptions.push(targets, panels, heartbeat);

  panels.setActionHandler((message, subject) => {
    switch (message.type) {
      case 'export':
        void guarded(() => exportRunCommand(services, message.format, subject));
        break;
      case 'copyMarkdown':
        void guarded(() => copyMarkdownCommand(services, subject));
        break;
      case 'openRun':
        void guarded(() => openRunCommand(services, subject));
        break;
      default:
        assertNever(message, 'panel action');
    }
  });

  const commands: ExtensionBody['commands'] = {
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
    'dbprobe.refresh': async () => targets.invalidate(),
  };
  // Loaded for a heartbeat turned on (or for anything else): it starts or stays off as set.
  void heartbeat.reconcile();
  return {
    judgeRun,
    fileDriverIds: (text, languageId) => [
      ...new Set(fileDriverHints(text, languageId).flatMap((h) => h.drivers)),
    ],
    commands,
    targetsView: new TargetsView(targets, runs, registry, lensMemory, heartbeat),
    restorePanel: (panel, state) => panels.restore(panel, state),
    rejudgeRuns: () => runs.rejudge(verdictJudge()),
    stopAll: (withinMs) => running.stopAll(withinMs),
  };
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
