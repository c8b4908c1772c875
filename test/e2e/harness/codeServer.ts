// Starts a real VS Code (code-server) isolated from the machine: its own HOME, XDG folders, extensions
// folder and user-data folder, so no test sees another's state or the developer's own VS Code setup.
import { execFile, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { killTree, killTreeNow } from './processTree';
import { codeServerBin } from './tools';

export interface CodeServerOptions {
  /** A packaged extension to install before the start. */
  vsixPath?: string;
  /** More packaged extensions to install beside it (a fixture to compare with). */
  extraVsixPaths?: string[];
  /** The folder the workbench opens. */
  workspaceDir: string;
  /** Merged over the defaults below, into the user's settings.json. */
  userSettings?: Record<string, unknown>;
  /** A fixed port; by default a free one. */
  port?: number;
  /** How long to wait for /healthz; code-server takes 1 to 3 s here. */
  startTimeoutMs?: number;
  /**
   * Keep VS Code's workspace trust on (no --disable-workspace-trust), for tests of what an untrusted
   * workspace may do. Off by default: the trust prompt would stop every other test at its start.
   */
  workspaceTrust?: boolean;
}

export interface CodeServer {
  /** The workbench URL with the workspace folder opened. */
  url: string;
  extensionsDir: string;
  userDataDir: string;
  /** Kills code-server and all its children, then removes the temp folders (unless DBPROBE_E2E_KEEP=1). */
  stop(): Promise<void>;
  /** Everything code-server printed so far (stdout and stderr interleaved), for failure messages. */
  logs(): string;
}

// Quiet, deterministic defaults: nothing phones home, nothing updates, nothing opens on its own.
const DEFAULT_SETTINGS: Record<string, unknown> = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'workbench.startupEditor': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  // Code 1.139 opens a Copilot chat in the secondary side bar on first start: it narrows the editor and
  // shows up in every screenshot.
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

// The flags of shared/TESTBED.md: no auth on 127.0.0.1, no telemetry/update traffic, no trust prompt,
// no code-server welcome page, and no reopening of a previous session's folder.
const FIXED_FLAGS = [
  '--auth',
  'none',
  '--disable-telemetry',
  '--disable-update-check',
  '--disable-workspace-trust',
  '--disable-getting-started-override',
  '--ignore-last-opened',
];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function isolatedEnv(home: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    // An empty gallery: the extensions view must never try to reach a marketplace.
    EXTENSIONS_GALLERY: '{}',
    // code-server reads these as flag values; a stray one from the caller's shell would change its setup.
    PASSWORD: undefined,
    HASHED_PASSWORD: undefined,
    VSCODE_PROXY_URI: undefined,
  };
}

function installVsix(bin: string, vsix: string, dirs: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const args = ['--install-extension', vsix, '--extensions-dir', dirs[0]!, '--user-data-dir', dirs[1]!];
  return new Promise((resolve, reject) => {
    execFile(bin, args, { env, timeout: 120_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      const out = `${stdout}${stderr}`;
      // code-server exits 0 on some failures, so the success line is the proof.
      if (err || !/successfully installed/i.test(out)) {
        reject(new Error(`code-server --install-extension ${vsix} failed: ${err?.message ?? ''}\n${out}`));
      } else resolve();
    });
  });
}

async function waitForHealthz(base: string, timeoutMs: number, exited: () => string | null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const why = exited();
    if (why) throw new Error(`code-server exited before it was healthy (${why})`);
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server /healthz not ready after ${timeoutMs} ms (last: ${last})`);
}

export async function startCodeServer(opts: CodeServerOptions): Promise<CodeServer> {
  const bin = codeServerBin();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dbprobe-cs-'));
  const home = path.join(root, 'home');
  const extensionsDir = path.join(root, 'extensions');
  const userDataDir = path.join(root, 'user-data');
  for (const dir of [home, extensionsDir, path.join(userDataDir, 'User')])
    fs.mkdirSync(dir, { recursive: true });
  const settings = { ...DEFAULT_SETTINGS, ...opts.userSettings };
  fs.writeFileSync(path.join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  const env = isolatedEnv(home);
  const removeRoot = () => {
    if (process.env.DBPROBE_E2E_KEEP !== '1') fs.rmSync(root, { recursive: true, force: true });
  };

  try {
    for (const vsix of [opts.vsixPath, ...(opts.extraVsixPaths ?? [])])
      if (vsix) await installVsix(bin, path.resolve(vsix), [extensionsDir, userDataDir], env);
  } catch (e) {
    removeRoot();
    throw e;
  }

  const port = opts.port ?? (await freePort());
  const workspaceDir = path.resolve(opts.workspaceDir);
  const args = [
    '--bind-addr',
    `127.0.0.1:${port}`,
    ...FIXED_FLAGS.filter((flag) => !(opts.workspaceTrust && flag === '--disable-workspace-trust')),
    '--extensions-dir',
    extensionsDir,
    '--user-data-dir',
    userDataDir,
    workspaceDir,
  ];
  // detached: own process group, so stop() can signal the whole tree (see processTree.ts).
  const child = spawn(bin, args, {
    env,
    cwd: workspaceDir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  let exitReason: string | null = null;
  child.on('exit', (code, signal) => {
    exitReason = `code ${code}, signal ${signal}`;
  });
  child.on('error', (e) => {
    exitReason = e.message;
  });
  // If the test process dies without calling stop(), do not leave a VS Code running.
  const onExit = () => {
    killTreeNow(child);
    removeRoot();
  };
  process.on('exit', onExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', onExit);
    await killTree(child);
    removeRoot();
  };

  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHealthz(base, opts.startTimeoutMs ?? 60_000, () => exitReason);
  } catch (e) {
    await stop();
    throw new Error(`${(e as Error).message}\n--- code-server output ---\n${output}`, { cause: e });
  }
  return {
    url: `${base}/?folder=${encodeURIComponent(workspaceDir)}`,
    extensionsDir,
    userDataDir,
    stop,
    logs: () => output,
  };
}
