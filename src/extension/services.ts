/** What the commands share, built once at activation (cheap constructors only: nothing is read yet). */
import type * as vscode from 'vscode';
import type { Redactor } from '../shared/redact';
import type { DriverRegistry } from '../core/driver';
import type { ColdAccess } from '../cold/access';
import type { Place } from '../places/place';
import type { ConnectionStore } from './connections/connectionStore';
import type { TargetProvider } from './config/targetProvider';
import type { Log } from './log';
import type { PanelManager } from './panel/panelManager';
import type { RunningProbes } from './probe/runningProbes';
import type { RunStore } from './runs/runStore';
import type { RunnerStore } from './runners/runnerStore';

export interface Services {
  context: vscode.ExtensionContext;
  registry: DriverRegistry;
  log: Log;
  connections: ConnectionStore;
  /** The log's Redactor after learning every stored secret and runner token: for views and exports. */
  secretsKnown: () => Promise<Redactor>;
  targets: TargetProvider;
  runs: RunStore;
  panels: PanelManager;
  /** Probes under way in this window (stopped and saved when it closes). */
  running: RunningProbes;
  /** This machine as a place to probe from; runners are places too, built per run. */
  local: Place;
  /** This machine for a run of the `cold` kind, with what the cold step allowed (src/extension/cold). */
  coldLocal(access: ColdAccess): Place;
  runners: RunnerStore;
  /** Connection strings that are not secrets of the user's (the demo database's file: URL). */
  builtInConnections: Map<string, string>;
}
