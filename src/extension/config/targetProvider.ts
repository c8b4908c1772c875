/**
 * The editor's live target list: `dbprobe.targets` (user and workspace) plus each workspace folder's
 * dbprobe.json, re-read when either changes. Reading is lazy: nothing is read until a view or a
 * command asks, so activation stays cheap.
 */
import * as vscode from 'vscode';
import type { DriverRegistry } from '../../core/driver';
import { isRecord } from '../../shared/guards';
import type { TargetSpec } from '../../shared/plan';
import type { Log } from '../log';
import { FLAT_SECTIONS, sectionValue, type PlanSettings } from './planSettings';
import { anchorCaFile, resolveTargets, type TargetList } from './targetSources';

export const CONFIG_FILE = 'dbprobe.json';

export interface TargetSnapshot extends TargetList {
  /** The first folder's dbprobe.json, for plan settings (iterations, warm-up...). */
  fileConfig?: Record<string, unknown>;
  fileProblems: string[];
}

export class TargetProvider implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private snapshot?: Promise<TargetSnapshot>;
  private readonly disposables: vscode.Disposable[] = [this.changed];

  constructor(
    private readonly registry: DriverRegistry,
    private readonly log: Log,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('dbprobe')) this.invalidate();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.invalidate()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.invalidate()),
    );
    const watcher = vscode.workspace.createFileSystemWatcher(`**/${CONFIG_FILE}`);
    watcher.onDidChange(() => this.invalidate());
    watcher.onDidCreate(() => this.invalidate());
    watcher.onDidDelete(() => this.invalidate());
    this.disposables.push(watcher);
  }

  get(): Promise<TargetSnapshot> {
    this.snapshot ??= this.read();
    return this.snapshot;
  }

  invalidate(): void {
    this.snapshot = undefined;
    this.changed.fire();
  }

  planSettings(): PlanSettings {
    const config = vscode.workspace.getConfiguration('dbprobe');
    const section = (name: keyof typeof FLAT_SECTIONS) => {
      const explicit: Record<string, unknown> = {};
      for (const field of FLAT_SECTIONS[name]) {
        const value = explicitValue(config, `${name}.${field}`);
        if (value !== undefined) explicit[field] = value;
      }
      return sectionValue(config.get(name), explicit);
    };
    return {
      // Only a count the user set: the default (absent here) shortens to fit timeouts.runMs.
      iterations: explicitValue(config, 'iterations'),
      warmup: config.get('warmup'),
      // An empty setting is none (the rule's default), not a bad value.
      minEffect: config.get<string>('minEffect') || undefined,
      order: config.get('order'),
      timeouts: section('timeouts'),
      load: section('load'),
      schedule: section('schedule'),
      cold: section('cold'),
    };
  }

  /** Adds or replaces a target in the user's settings (connections are per user, like the secrets). */
  async saveUserTarget(spec: TargetSpec): Promise<void> {
    const config = vscode.workspace.getConfiguration('dbprobe');
    const current = config.inspect<unknown[]>('targets')?.globalValue ?? [];
    const others = current.filter((t) => !(isRecord(t) && t.name === spec.name));
    await config.update('targets', [...others, spec], vscode.ConfigurationTarget.Global);
  }

  /** Removes user-settings targets that use `secret:NAME`; returns how many went. */
  async removeUserTargetsUsing(reference: string): Promise<number> {
    const config = vscode.workspace.getConfiguration('dbprobe');
    const current = config.inspect<unknown[]>('targets')?.globalValue ?? [];
    const kept = current.filter((t) => !(isRecord(t) && t.connection === reference));
    if (kept.length !== current.length) {
      await config.update('targets', kept.length > 0 ? kept : undefined, vscode.ConfigurationTarget.Global);
    }
    return current.length - kept.length;
  }

  private async read(): Promise<TargetSnapshot> {
    const inspected = vscode.workspace.getConfiguration('dbprobe').inspect<unknown[]>('targets');
    // inspect() rather than get(): it keeps user and workspace values apart, so workspace-defined
    // targets can be held to the trust rules even though `dbprobe.targets` is a restricted setting.
    const workspaceTargets = [
      ...asArray(inspected?.workspaceValue),
      ...asArray(inspected?.workspaceFolderValue),
    ];
    const files = await this.readConfigFiles();
    const list = resolveTargets({
      fileTargets: files.targets,
      workspaceTargets,
      userTargets: inspected?.globalValue,
      knownDrivers: this.registry.ids(),
    });
    for (const s of list.shadowed) {
      this.log.info(
        `target "${s.name}" from ${s.source} settings is hidden by the one in ${s.by === 'file' ? CONFIG_FILE : `${s.by} settings`}`,
      );
    }
    return { ...list, fileConfig: files.first, fileProblems: files.problems };
  }

  private async readConfigFiles(): Promise<{
    targets: unknown[];
    first?: Record<string, unknown>;
    problems: string[];
  }> {
    const targets: unknown[] = [];
    const problems: string[] = [];
    let first: Record<string, unknown> | undefined;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const uri = vscode.Uri.joinPath(folder.uri, CONFIG_FILE);
      let text: string;
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        continue; // No dbprobe.json in this folder: nothing to read.
      }
      try {
        const parsed: unknown = JSON.parse(text);
        if (!isRecord(parsed)) throw new Error('it must hold a JSON object with a "targets" list');
        first ??= parsed;
        // A relative tls.caFile names a file beside this dbprobe.json, as it does for the CLI.
        targets.push(...asArray(parsed.targets).map((t) => anchorCaFile(t, folder.uri.fsPath)));
      } catch (error) {
        const problem = `${vscode.workspace.asRelativePath(uri)} cannot be read: ${(error as Error).message}. Fix the file; its targets are left out until then.`;
        problems.push(problem);
        this.log.warn(problem);
      }
    }
    return { targets, first, problems };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A setting's value where the user set one (folder, workspace or user settings); undefined otherwise. */
function explicitValue(config: vscode.WorkspaceConfiguration, key: string): unknown {
  const set = config.inspect(key);
  return set?.workspaceFolderValue ?? set?.workspaceValue ?? set?.globalValue;
}
