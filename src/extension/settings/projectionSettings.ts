/** The projection's settings: the panel's RTTs and where the app runs. */
import * as vscode from 'vscode';
import {
  panelProjectionOf,
  readAppLocation,
  type AppLocation,
  type PanelProjection,
} from '../queries/appLocation';
import { DEFAULT_PROJECTION_RTTS_MS, readRtts } from '../../shared/projectionRtts';

/** `dbprobe.projection.rtts`, or the defaults (with a warning to `warn`) when the list cannot be read. */
export function projectionRtts(warn: (line: string) => void = () => undefined): number[] {
  const value = vscode.workspace.getConfiguration('dbprobe.projection').get<unknown>('rtts');
  if (value === undefined || value === null) return [...DEFAULT_PROJECTION_RTTS_MS];
  const read = readRtts(Array.isArray(value) ? value : [value], 'dbprobe.projection.rtts');
  if (read.error === undefined) return read.rttsMs;
  warn(`${read.error}; using ${DEFAULT_PROJECTION_RTTS_MS.join(', ')} ms until it is fixed`);
  return [...DEFAULT_PROJECTION_RTTS_MS];
}

/**
 * Where the app runs: `dbprobe.appLocation` (a runner place, whose measured floor to each target is
 * the RTT) when set, else `dbprobe.appRttMs`; undefined when neither is. The first-run question
 * (appLocationQuestion.ts) writes its answer into these same settings.
 */
export function appLocation(): AppLocation | undefined {
  const config = vscode.workspace.getConfiguration('dbprobe');
  return readAppLocation((setting) => config.get<unknown>(setting));
}

/**
 * Names where the app runs, as set now: a saved verdict judged for another key is stale (the Runs
 * view's rows are judged again when it changes).
 */
export function appLocationKey(): string {
  return JSON.stringify(appLocation() ?? { kind: 'unset' });
}

/** The panel's projection from the settings (appLocation.ts panelProjectionOf). */
export function panelProjection(warn: (line: string) => void = () => undefined): PanelProjection {
  return panelProjectionOf(appLocation(), projectionRtts(warn));
}

/** Whether a configuration change touches what the run panel projects to. */
export function affectsPanelProjection(e: vscode.ConfigurationChangeEvent): boolean {
  return affectsAppLocation(e) || e.affectsConfiguration('dbprobe.projection.rtts');
}

/** Whether a configuration change touches where the app runs. */
export function affectsAppLocation(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration('dbprobe.appLocation') || e.affectsConfiguration('dbprobe.appRttMs');
}
