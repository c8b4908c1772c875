/** The projection's settings: the panel's RTTs and where the app runs. */
import * as vscode from 'vscode';
import { locationOfRtt, type AppLocation } from '../queries/appLocation';
import { DEFAULT_PROJECTION_RTTS_MS, MAX_PROJECTION_RTT_MS, readRtts } from '../../shared/projectionRtts';

/** `dbprobe.projection.rtts`, or the defaults (with a warning to `warn`) when the list cannot be read. */
export function projectionRtts(warn: (line: string) => void = () => undefined): number[] {
  const value = vscode.workspace.getConfiguration('dbprobe.projection').get<unknown>('rtts');
  if (value === undefined || value === null) return [...DEFAULT_PROJECTION_RTTS_MS];
  const read = readRtts(Array.isArray(value) ? value : [value], 'dbprobe.projection.rtts');
  if (read.error === undefined) return read.rttsMs;
  warn(`${read.error}; using ${DEFAULT_PROJECTION_RTTS_MS.join(', ')} ms until it is fixed`);
  return [...DEFAULT_PROJECTION_RTTS_MS];
}

/** `dbprobe.appRttMs`: the RTT from the database to where the app runs, or undefined when not set. */
export function appRttMs(): number | undefined {
  const value = vscode.workspace.getConfiguration('dbprobe').get<unknown>('appRttMs');
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_PROJECTION_RTT_MS
    ? value
    : undefined;
}

/**
 * Where the app runs: `dbprobe.appLocation` (a runner place, whose measured floor to each target is
 * the RTT) when set, else `dbprobe.appRttMs` (0: here, the measured figures are the app's); undefined
 * when neither is.
 */
export function appLocation(): AppLocation | undefined {
  const place = vscode.workspace.getConfiguration('dbprobe').get<unknown>('appLocation');
  if (typeof place === 'string' && place.trim() !== '') return { kind: 'place', place: place.trim() };
  return locationOfRtt(appRttMs());
}

/**
 * What the run panel projects to: the `dbprobe.projection.rtts` columns, and the app's RTT from the
 * one reading of where the app runs that the CodeLens and the heartbeat use (`appLocation`). A runner
 * place measures a different RTT to each target: the panel then has no single app RTT, and says so.
 */
export interface PanelProjection {
  rttsMs: number[];
  appRttMs?: number;
  /** `dbprobe.appLocation` names a runner place (the panel projects to one RTT only). */
  appPlace?: string;
  /** `dbprobe.appRttMs` is 0: the app runs here, so the measured figures answer for it. */
  appHere?: true;
}

export function panelProjection(warn: (line: string) => void = () => undefined): PanelProjection {
  const location = appLocation();
  return {
    rttsMs: projectionRtts(warn),
    ...(location?.kind === 'rtt' ? { appRttMs: location.rttMs } : {}),
    ...(location?.kind === 'place' ? { appPlace: location.place } : {}),
    ...(location?.kind === 'here' ? { appHere: true as const } : {}),
  };
}

/** Whether a configuration change touches what the run panel projects to. */
export function affectsPanelProjection(e: vscode.ConfigurationChangeEvent): boolean {
  return affectsAppLocation(e) || e.affectsConfiguration('dbprobe.projection.rtts');
}

/** Whether a configuration change touches where the app runs. */
export function affectsAppLocation(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration('dbprobe.appLocation') || e.affectsConfiguration('dbprobe.appRttMs');
}
