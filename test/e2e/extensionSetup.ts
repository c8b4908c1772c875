/**
 * What every end-to-end test file of the extension needs before it opens a workbench: the testbed and
 * code-server environment, the packaged .vsix, and failure screenshots. Shared by extension*.test.ts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { thisMachineTarget } from '../../scripts/package/targets';
import { builtVsixPackages } from '../helpers/vsixPackages';

export const ROOT = path.resolve(__dirname, '..', '..');
export const RESULTS = path.join(ROOT, 'test-results', 'e2e');
export const EXTENSION_ID = 'dbprobe.dbprobe';

/** The environment of scripts/e2e/setup.sh and the testbed, when the caller has not set it. */
export function loadEnvironment(): void {
  const scripts: string[] = [];
  if (!process.env.DBPROBE_CODE_SERVER_BIN) scripts.push('bash scripts/e2e/setup.sh');
  if (!process.env.DBPROBE_TEST_PG_URL || !process.env.DBPROBE_TEST_REDIS_URL)
    scripts.push('bash scripts/testbed/up.sh pg redis');
  if (scripts.length === 0) return;
  const script = `${scripts.map((s) => `eval "$(${s})"`).join(' && ')} && env -0`;
  const out = execFileSync('bash', ['-c', script], {
    cwd: ROOT,
    maxBuffer: 16 << 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for (const pair of out.toString().split('\0')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.startsWith('DBPROBE_')) process.env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
}

/**
 * The release artifact itself: this machine's package from `npm run package` (production bundles,
 * .vscodeignore, vsce), run again only if a source changed since the last one; also makes sure
 * dist/runner.js is built. DBPROBE_E2E_VSIX names a .vsix to use instead.
 */
export function packageExtension(figures: Record<string, string | number>): string {
  if (process.env.DBPROBE_E2E_VSIX) return process.env.DBPROBE_E2E_VSIX;
  const t0 = Date.now();
  // Built by test/integration/package-vsix.test.ts earlier in the same `npm test` unless a source changed since.
  const index = builtVsixPackages(() => undefined);
  if (!fs.existsSync(path.join(ROOT, 'dist', 'runner.js')))
    execFileSync('node', ['esbuild.js', '--only=runner'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  figures.packageMs = Date.now() - t0;
  // This machine's platform package (linux-x64 here): the one the Marketplace would install.
  const target = thisMachineTarget();
  const built = index.packages.find((p) => p.target === target);
  assert.ok(built, `npm run package built no VSIX for this machine (${target ?? process.platform})`);
  return built.file;
}

export function env(name: string): string {
  const value = process.env[name];
  assert.ok(value, `${name} is set by scripts/testbed/up.sh`);
  return value;
}

/**
 * The last lines of the extension's own log ("DB Probe" output channel, which VS Code writes under
 * the user data folder's logs): what the extension did, and when, up to a failed step. The log is
 * redacted by the extension (this suite checks that too), so it can go into a failure message.
 */
export function extensionLogTail(userDataDir: string | undefined, lines = 15): string {
  if (!userDataDir) return '';
  const logs: string[] = [];
  const walk = (folder: string, depth: number) => {
    if (depth > 6 || !fs.existsSync(folder)) return;
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file, depth + 1);
      else if (entry.name.endsWith('DB Probe.log')) logs.push(file);
    }
  };
  walk(path.join(userDataDir, 'logs'), 0);
  const newest = logs.sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  if (!newest) return '(no DB Probe log found)';
  return fs.readFileSync(newest, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Saves what the screen showed when a step failed, with the notifications, the open input and (given
 * the user data folder) the extension's last log lines: the assertion alone rarely says why.
 */
export function withFailureScreenshot(
  page: () => Page | undefined,
  userDataDir: () => string | undefined = () => undefined,
): (body: () => Promise<void> | void) => () => Promise<void> {
  return (body) => async () => {
    try {
      await body();
    } catch (error) {
      const file = path.join(RESULTS, `failure-${Date.now()}.png`);
      await page()
        ?.screenshot({ path: file })
        .catch(() => undefined);
      const toasts = await page()
        ?.locator('.notification-toast')
        .allInnerTexts()
        .catch(() => []);
      // An input box left open says which step the flow stopped at.
      const openInput = await page()
        ?.locator('.quick-input-widget:visible .quick-input-title')
        .allInnerTexts()
        .catch(() => []);
      const log = extensionLogTail(userDataDir());
      throw new Error(
        `${(error as Error).message}\n(screenshot: ${file}; notifications: ${JSON.stringify(toasts)}; open input: ${JSON.stringify(openInput ?? [])})${log ? `\nthe extension's log, last lines:\n${log}` : ''}`,
        { cause: error },
      );
    }
  };
}

/** Every text file under `dir` a secret could have leaked into (settings, runs, exports, logs). */
export function textFilesUnder(dir: string, pattern = /\.(json|md|csv|log|txt)$/): string[] {
  const texts: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (pattern.test(entry.name) && fs.statSync(file).size < 50 << 20)
        texts.push(fs.readFileSync(file, 'utf8'));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return texts;
}
