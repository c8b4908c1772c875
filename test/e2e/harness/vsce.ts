// Packages an extension folder into a .vsix with vsce, offline and without prompts.
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { vsceBin } from './tools';

export interface PackageOptions {
  /** Default false: the extension is bundled (esbuild), so node_modules must not be walked. */
  dependencies?: boolean;
  timeoutMs?: number;
}

export function packageVsix(
  extensionDir: string,
  outFile: string,
  opts: PackageOptions = {},
): Promise<string> {
  const out = path.resolve(outFile);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const args = [
    'package',
    '--out',
    out,
    opts.dependencies ? '--dependencies' : '--no-dependencies',
    // Without these two vsce asks "Do you want to continue? [y/N]" on stdin, which CI does not have.
    '--allow-missing-repository',
    '--skip-license',
  ];
  return new Promise((resolve, reject) => {
    const child = execFile(
      vsceBin(),
      args,
      { cwd: extensionDir, timeout: opts.timeoutMs ?? 120_000, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        if (err || !fs.existsSync(out)) {
          reject(
            new Error(`vsce package failed in ${extensionDir}: ${err?.message ?? ''}\n${stdout}${stderr}`),
          );
        } else resolve(out);
      },
    );
    // Any prompt we did not foresee gets end-of-file (a "no") instead of hanging until the timeout.
    child.stdin?.end();
  });
}
