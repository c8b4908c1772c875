/**
 * Builds the cold kind's preparer for a caller: the Neon API (key from the caller's environment or
 * secret store), idle-wait, and the suspend command when the caller allows commands.
 */
import { idleWait, type ColdPreparer, type ColdPrepareRequest } from '../core/cold';
import { ProbeError } from '../core/failure';
import type { NeonColdSpec } from '../shared/plan';
import { NeonApi } from './neonApi';
import { endpointIdFromUrl } from './neonIds';
import { runSuspendCommand } from './suspendCommand';

export const DEFAULT_NEON_KEY_REFERENCE = 'env:NEON_API_KEY';

export interface ColdPreparerOptions {
  /** Resolves `env:VAR` / `secret:NAME` to the API key, or undefined when it is not set. */
  resolveReference(reference: string): Promise<string | undefined>;
  /** Suspend commands run only where the caller says so (never on a remote runner). */
  allowCommands: boolean;
  /** Why commands are refused, for the error (e.g. "the workspace is not trusted"). */
  commandsRefusedBecause?: string;
  fetch?: typeof fetch;
  /** Poll interval for the Neon endpoint state. */
  pollMs?: number;
}

export function createColdPreparer(options: ColdPreparerOptions): ColdPreparer {
  return async (request) => {
    const cold = request.target.cold;
    switch (cold?.mode) {
      case 'idle-wait':
        return idleWait(cold.idleMs ?? 0, request);
      case 'command':
        if (!options.allowCommands)
          throw new ProbeError(
            'config',
            `suspend commands are not allowed here (${options.commandsRefusedBecause ?? 'the caller does not run commands'})`,
          );
        return runSuspendCommand(cold.command ?? [], request.signal, request.onWait);
      case 'neon-api':
        return suspendThroughNeon(cold.neon ?? {}, request, options);
      case undefined:
        throw new ProbeError('config', `target "${request.target.name}" has no "cold" settings`);
    }
  };
}

async function suspendThroughNeon(
  neon: NeonColdSpec,
  request: ColdPrepareRequest,
  options: ColdPreparerOptions,
): Promise<void> {
  const reference = neon.apiKey ?? DEFAULT_NEON_KEY_REFERENCE;
  const apiKey = (await options.resolveReference(reference))?.trim();
  if (!apiKey)
    throw new ProbeError(
      'config',
      `the Neon API key is not set (cold.neon.apiKey is "${reference}"); create one in the Neon console (Account settings > API keys) and ${reference.startsWith('env:') ? `export ${reference.slice(4)}=...` : 'store it with "DB Probe: Set Neon API Key"'}`,
    );
  request.registerSecret(apiKey);
  const endpointId = neon.endpointId ?? endpointIdFromUrl(request.url);
  if (!endpointId)
    throw new ProbeError(
      'config',
      `the connection string's host is not a Neon endpoint (ep-...), so set cold.neon.endpointId (console: Computes)`,
    );
  if (!neon.projectId)
    throw new ProbeError(
      'config',
      `set cold.neon.projectId: Neon's API needs the project id to suspend endpoint ${endpointId} (console: Settings > General)`,
    );
  const api = new NeonApi({
    apiKey,
    ...(neon.apiUrl ? { baseUrl: neon.apiUrl } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  await api.suspendAndWait(
    { projectId: neon.projectId, endpointId },
    request.signal,
    request.onWait,
    options.pollMs,
  );
}
