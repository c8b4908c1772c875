/** The projection's settings: the panel's RTTs and where the app runs (issue 23). */
import * as vscode from 'vscode';
import type { AppLocation } from '../queries/appLocation';
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
 * the RTT) when set, else `dbprobe.appRttMs`; undefined when neither is.
 */
export function appLocation(): AppLocation | undefined {
  const place = vscode.workspace.getConfiguration('dbprobe').get<unknown>('appLocation');
  if (typeof place === 'string' && place.trim() !== '') return { kind: 'place', place: place.trim() };
  const rttMs = appRttMs();
  return rttMs === undefined ? undefined : { kind: 'rtt', rttMs };
}

/** Whether a configuration change touches where the app runs. */
export function affectsAppLocation(e: vscode.ConfigurationChangeEvent): boolean {
  return e.affectsConfiguration('dbprobe.appLocation') || e.affectsConfiguration('dbprobe.appRttMs');
}
