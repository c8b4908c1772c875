/** "DB Probe: Set Neon API Key" and "Clear Neon API Key": the key goes to secret storage only. */
import * as vscode from 'vscode';
import type { Services } from '../services';
import { NeonKeyStore } from './neonKeyStore';

const KEY_SHAPE = /^\S{8,512}$/;

/** Asks for the key (a password box) and stores it; the key, or undefined when the user gave none. */
export async function askNeonApiKey(services: Services, why?: string): Promise<string | undefined> {
  const value = await vscode.window.showInputBox({
    title: 'Neon API key',
    prompt: `${why ? `${why} ` : ''}Create one in the Neon console (Account settings > API keys). It is kept in VS Code's secret storage only, and used only to suspend endpoints for the cold kind.`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) =>
      KEY_SHAPE.test(text.trim()) ? undefined : 'Paste the API key: one word, no spaces.',
  });
  const key = value?.trim();
  if (!key) return undefined;
  services.log.redactor.addSecret(key);
  await new NeonKeyStore(services.context.secrets).store(key);
  services.log.info("Neon API key stored in VS Code's secret storage");
  return key;
}

export async function setNeonApiKeyCommand(services: Services): Promise<void> {
  if (await askNeonApiKey(services))
    void vscode.window.showInformationMessage(
      "DB Probe: the Neon API key is in VS Code's secret storage; cold probes of Neon targets use it to suspend the endpoint first.",
    );
}

export async function clearNeonApiKeyCommand(services: Services): Promise<void> {
  const store = new NeonKeyStore(services.context.secrets);
  if (!(await store.get())) {
    void vscode.window.showInformationMessage(
      'DB Probe: no Neon API key is stored. (A NEON_API_KEY in the environment is still read, as the CLI does.)',
    );
    return;
  }
  await store.clear();
  services.log.info("Neon API key removed from VS Code's secret storage");
  void vscode.window.showInformationMessage(
    "DB Probe: the Neon API key was removed from VS Code's secret storage.",
  );
}
