/**
 * Runners: name and URL in the `dbprobe.runners` user setting, the token in SecretStorage. The secret
 * also records the URL the token was saved for, so a settings edit (or a synced or shared setting)
 * that points a runner's name at another host never sends the token there.
 */
import * as vscode from 'vscode';
import { isRecord } from '../../shared/guards';
import type { Redactor } from '../../shared/redact';
import { normaliseUrl, parseRunners, type ParsedRunners, type RunnerSetting } from './runnerSettings';

const secretKey = (name: string) => `dbprobe.runner/${name}`;

export interface RunnerCredentials {
  url: string;
  token: string;
}

export type CredentialLookup = { ok: true; token: string } | { ok: false; problem: string };

export class RunnerStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  read(): ParsedRunners {
    return parseRunners(vscode.workspace.getConfiguration('dbprobe').get<unknown>('runners'));
  }

  list(): RunnerSetting[] {
    return this.read().runners;
  }

  async stored(name: string): Promise<RunnerCredentials | undefined> {
    const raw = await this.secrets.get(secretKey(name));
    if (!raw) return undefined;
    try {
      const parsed = JSON.parse(raw) as Partial<RunnerCredentials>;
      return typeof parsed.url === 'string' && typeof parsed.token === 'string'
        ? { url: parsed.url, token: parsed.token }
        : undefined;
    } catch {
      return undefined;
    }
  }

  /** The token for this runner's current URL, or what keeps it from being sent. */
  async token(runner: RunnerSetting): Promise<CredentialLookup> {
    const stored = await this.stored(runner.name);
    if (!stored) {
      return {
        ok: false,
        problem: `runner "${runner.name}" has no token in this VS Code's secret storage; run "DB Probe: Add Runner" with the name ${runner.name} to store it`,
      };
    }
    if (normaliseUrl(stored.url) !== runner.url) {
      return {
        ok: false,
        problem: `runner "${runner.name}" now points at ${runner.url}, but its token was saved for ${normaliseUrl(stored.url)}; the token is not sent to a URL it was not saved for. Run "DB Probe: Add Runner" for ${runner.name} to confirm the new URL`,
      };
    }
    return { ok: true, token: stored.token };
  }

  /** Stores the token, then adds or replaces the runner in the user's settings (keeping its env map). */
  async save(runner: Omit<RunnerSetting, 'env'>, token: string): Promise<void> {
    await this.secrets.store(secretKey(runner.name), JSON.stringify({ url: runner.url, token }));
    const config = vscode.workspace.getConfiguration('dbprobe');
    const current = config.inspect<unknown[]>('runners')?.globalValue ?? [];
    const previous = current.find((r) => isNamed(r, runner.name));
    const entry = { ...(isRecord(previous) ? previous : {}), name: runner.name, url: runner.url };
    await config.update(
      'runners',
      [...current.filter((r) => !isNamed(r, runner.name)), entry],
      vscode.ConfigurationTarget.Global,
    );
  }

  async remove(name: string): Promise<void> {
    await this.secrets.delete(secretKey(name));
    const config = vscode.workspace.getConfiguration('dbprobe');
    const current = config.inspect<unknown[]>('runners')?.globalValue ?? [];
    const kept = current.filter((r) => !isNamed(r, name));
    if (kept.length !== current.length)
      await config.update('runners', kept.length > 0 ? kept : undefined, vscode.ConfigurationTarget.Global);
  }

  /** Teaches a Redactor every stored token, so logs, panels and exports mask them. */
  async teach(redactor: Redactor): Promise<Redactor> {
    const stored = await Promise.all(this.list().map((r) => this.stored(r.name)));
    for (const s of stored) redactor.addSecret(s?.token);
    return redactor;
  }
}

function isNamed(value: unknown, name: string): boolean {
  return isRecord(value) && value.name === name;
}
