/**
 * The Neon API key of the cold kind, in VS Code's secret storage ("DB Probe: Set Neon API Key"). One
 * key serves every target: it answers whatever reference a target's cold.neon.apiKey names. Without
 * a stored key, an `env:VAR` reference reads VAR from the extension host's environment, as the CLI
 * does (NEON_API_KEY by default).
 */
import type * as vscode from 'vscode';

const SECRET_KEY = 'dbprobe.neonApiKey';

export class NeonKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(): Promise<string | undefined> {
    return (await this.secrets.get(SECRET_KEY))?.trim() || undefined;
  }

  store(key: string): Thenable<void> {
    return this.secrets.store(SECRET_KEY, key.trim());
  }

  clear(): Thenable<void> {
    return this.secrets.delete(SECRET_KEY);
  }
}

/** The key for a target's reference: the stored key first, then the environment (env: only). */
export function resolveNeonKey(
  reference: string,
  stored: string | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (stored) return stored;
  if (!reference.startsWith('env:')) return undefined;
  return env[reference.slice('env:'.length)]?.trim() || undefined;
}
