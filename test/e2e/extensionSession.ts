/**
 * One end-to-end session: the packaged extension installed in a fresh code-server, a workspace folder
 * with the files a test needs, and Chromium on the workbench; closed (logs kept) by `close()`.
 * The set-up the older extension*.test.ts files each spell out, for new test files to share.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkbench, type Workbench } from './harness/browser';
import { startCodeServer, type CodeServer } from './harness/codeServer';
import { RESULTS, ROOT, loadEnvironment, packageExtension } from './extensionSetup';

export interface SessionOptions {
  /** Names the workspace folder (test/e2e/.work/<name>-*) and the kept log (code-server-<name>.log). */
  name: string;
  /** Files written into the workspace before the start, by path relative to it. */
  files?: (workspace: string) => Record<string, string>;
  /** User settings, over the harness's quiet defaults. */
  settings?: Record<string, unknown>;
  /** VS Code's workspace trust stays on (see CodeServerOptions.workspaceTrust). */
  workspaceTrust?: boolean;
  /** Figures the test prints at the end; the packaging time goes in here. */
  figures: Record<string, string | number>;
}

export interface Session {
  server: CodeServer;
  workbench: Workbench;
  workspace: string;
  close(): Promise<void>;
}

export async function openSession(options: SessionOptions): Promise<Session> {
  loadEnvironment();
  const vsix = packageExtension(options.figures);
  fs.mkdirSync(RESULTS, { recursive: true });
  const work = path.join(ROOT, 'test', 'e2e', '.work');
  fs.mkdirSync(work, { recursive: true });
  const workspace = fs.mkdtempSync(path.join(work, `${options.name}-`));
  for (const [file, text] of Object.entries(options.files?.(workspace) ?? {})) {
    fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
    fs.writeFileSync(path.join(workspace, file), text);
  }
  const server = await startCodeServer({
    vsixPath: vsix,
    workspaceDir: workspace,
    workspaceTrust: options.workspaceTrust ?? false,
    userSettings: {
      'workbench.colorTheme': 'Default Light Modern',
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      ...options.settings,
    },
  });
  let workbench: Workbench;
  try {
    workbench = await openWorkbench(server.url);
  } catch (error) {
    await server.stop();
    throw error;
  }
  let closed = false;
  return {
    server,
    workbench,
    workspace,
    async close() {
      if (closed) return;
      closed = true;
      await workbench.close();
      fs.writeFileSync(path.join(RESULTS, `code-server-${options.name}.log`), server.logs());
      await server.stop();
      if (process.env.DBPROBE_E2E_KEEP !== '1') fs.rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/** The extension's log file (its "DB Probe" output channel), read from the user-data folder. */
export function extensionLog(server: CodeServer): string {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/DB Probe\.log$/.test(entry.name)) found.push(file);
    }
  };
  walk(path.join(server.userDataDir, 'logs'));
  return found.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
}
