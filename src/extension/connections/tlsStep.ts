/**
 * The optional last step of Add Connection, for connection strings that use TLS: trust the system
 * store (the default), a CA file picked from disk (a private CA, a self-hosted database), or, after
 * an explicit warning, no verification at all. The answer is the target's `tls` setting, stored
 * with the target in user settings (a path is not a secret); reports and the panel flag insecure.
 */
import * as vscode from 'vscode';
import type { TargetTls } from '../../shared/plan';

type Trust = 'system' | 'caFile' | 'insecure';

/** The target's tls setting: {} for the system store; undefined when the user cancelled. */
export async function askTlsTrust(name: string, title: string): Promise<TargetTls | undefined> {
  const picked = await vscode.window.showQuickPick(
    [
      {
        label: 'Trust the system certificate store',
        detail:
          'For hosted databases with a public certificate (Neon, Supabase, PlanetScale...): nothing to add',
        trust: 'system' as Trust,
      },
      {
        label: 'Trust a CA file…',
        detail:
          'A PEM file of CA certificates: a private CA, or a self-hosted database with its own certificate',
        trust: 'caFile' as Trust,
      },
      {
        label: 'Do not verify the certificate (insecure)',
        detail: 'Encrypted, but the server is not checked: anyone in between could answer. Reports say so.',
        trust: 'insecure' as Trust,
      },
    ],
    {
      title,
      placeHolder: `"${name}" uses TLS: whom should it trust?`,
      ignoreFocusOut: true,
    },
  );
  switch (picked?.trust) {
    case undefined:
      return undefined;
    case 'system':
      return {};
    case 'caFile': {
      const files = await vscode.window.showOpenDialog({
        title: `CA certificates to trust for "${name}"`,
        openLabel: 'Trust This CA',
        canSelectMany: false,
        canSelectFolders: false,
        filters: { 'PEM certificates': ['pem', 'crt', 'cer'], 'All files': ['*'] },
      });
      const file = files?.[0];
      return file ? { caFile: file.fsPath } : undefined;
    }
    case 'insecure': {
      const OFF = 'Turn Off Verification';
      const choice = await vscode.window.showWarningMessage(
        `Turn off certificate verification for "${name}"?`,
        {
          modal: true,
          detail:
            'The connection stays encrypted, but DB Probe will accept any certificate, so a proxy or an impostor in between could answer and the figures would be theirs. Every report and the panel will mark this target "TLS not verified". Prefer a CA file when the server has its own certificate.',
        },
        OFF,
      );
      return choice === OFF ? { insecure: true } : undefined;
    }
  }
}
