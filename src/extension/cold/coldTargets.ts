/**
 * Pure rules of the editor's cold step, tested without VS Code: which Neon ids a target still lacks
 * (the endpoint comes from the connection string's host where it can), and what a suspend command
 * looks like when shown to the user for confirmation.
 */
import { endpointIdFromUrl } from '../../cold/neonIds';
import type { ColdTargetSpec, NeonColdSpec, TargetSpec } from '../../shared/plan';

/** Same shape as cold.neon ids in dbprobe.json (src/shared/schema/coldSchema.ts). */
export const NEON_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export interface NeonIdsFound {
  projectId?: string;
  endpointId?: string;
  /** Where the endpoint id came from, for the log. */
  endpointFrom?: 'settings' | 'connection string' | 'remembered';
}

export function neonIdsOf(
  neon: NeonColdSpec | undefined,
  url: string | undefined,
  remembered: { projectId?: string; endpointId?: string },
): NeonIdsFound {
  const parsed = url ? endpointIdFromUrl(url) : undefined;
  const endpointId = neon?.endpointId ?? parsed ?? remembered.endpointId;
  const endpointFrom = neon?.endpointId
    ? 'settings'
    : parsed
      ? 'connection string'
      : remembered.endpointId
        ? 'remembered'
        : undefined;
  const projectId = neon?.projectId ?? remembered.projectId;
  return {
    ...(projectId ? { projectId } : {}),
    ...(endpointId ? { endpointId } : {}),
    ...(endpointFrom ? { endpointFrom } : {}),
  };
}

/** The target with its Neon ids filled in (for this run only; settings stay as they are). */
export function withNeonIds(target: TargetSpec, ids: { projectId: string; endpointId: string }): TargetSpec {
  const cold: ColdTargetSpec = {
    ...(target.cold ?? { mode: 'neon-api' }),
    neon: { ...target.cold?.neon, ...ids },
  };
  return { ...target, cold };
}

/** A command as the user should read it: each argument quoted when it would be ambiguous bare. */
export function showCommand(command: readonly string[]): string {
  return command.map((arg) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg))).join(' ');
}

/** The key under which a confirmed command is remembered: the exact program and arguments. */
export function commandKey(target: string, command: readonly string[]): string {
  return JSON.stringify([target, ...command]);
}
