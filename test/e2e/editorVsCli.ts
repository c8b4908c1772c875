/**
 * The editor and the CLI probing the same targets: one dbprobe.json (the testbed's PostgreSQL and
 * Redis on plain loopback, `subsequent` only) probed from the palette of a real VS Code and from the
 * `dbprobe` CLI. Shared by the end-to-end test (test/e2e/extension-vs-cli.test.ts: the same engine
 * path, counts and figures read back) and the benchmark (scripts/bench/editor.ts: what the editor
 * adds, as a ratio with its interval over interleaved rounds).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { closeAllEditors, runCommand, waitForQuickInputTitle, webviewFrame } from './extensionPage';
import { EXTENSION_ID, ROOT, env, loadEnvironment } from './extensionSetup';
import { openSession, type Session } from './extensionSession';

export const TARGETS = ['e2e-pg', 'e2e-redis'] as const;
export type TargetName = (typeof TARGETS)[number];
export const PERCENTILES = ['p50', 'p99'] as const;
export type Percentile = (typeof PERCENTILES)[number];
/** Under a second per target and run; 3,000 samples put 30 beyond the p99. */
export const ITERATIONS = 3000;
export const WARMUP = 100;

/** What one side measured, per target: its percentiles (µs) and successful sample count. */
export type Figures = Record<TargetName, Record<Percentile, number> & { count: number }>;

/** The slice of a saved result these checks read. */
export interface SavedRun {
  id: string;
  state: string;
  plan: { kinds: string[]; iterations: number; warmup: number; order: string };
  environment: {
    location: { kind: string };
    drivers: Record<string, { package: string; version: string; source?: string; folder?: string }>;
  };
  measurements: {
    target: string;
    kind: string;
    reused: string[];
    stats: { p50Us: number; p99Us: number; count: number; errors: number };
  }[];
}

const CLI = path.join(ROOT, 'dist', 'cli.js');
/**
 * The CLI runs on the Node that runs code-server (scripts/e2e/setup.sh), so the two figures differ
 * only in where the engine runs, not in the runtime: Node 20 and 24 alone differ by more than 10% here.
 */
const CLI_NODE = (): string => process.env.DBPROBE_NODE24_BIN ?? process.execPath;

/** A code-server session whose workspace holds the shared dbprobe.json. */
export async function openVsCliSession(figures: Record<string, string | number>): Promise<Session> {
  loadEnvironment();
  if (!fs.existsSync(CLI))
    execFileSync('node', ['esbuild.js', '--production', '--only=cli'], { cwd: ROOT, stdio: 'inherit' });
  // One config for both: env: references resolve from code-server's environment (inherited from
  // this process) in the editor and from the CLI's own.
  process.env.DBPROBE_E2E_VSCLI_PG_URL = env('DBPROBE_TEST_PG_URL');
  process.env.DBPROBE_E2E_VSCLI_REDIS_URL = env('DBPROBE_TEST_REDIS_URL');
  const config = {
    targets: [
      { name: 'e2e-pg', driver: 'pg', connection: 'env:DBPROBE_E2E_VSCLI_PG_URL' },
      { name: 'e2e-redis', driver: 'ioredis', connection: 'env:DBPROBE_E2E_VSCLI_REDIS_URL' },
    ],
    kinds: ['subsequent'],
    iterations: ITERATIONS,
    warmup: WARMUP,
  };
  const session = await openSession({
    name: 'vs-cli',
    figures,
    files: () => ({ 'dbprobe.json': JSON.stringify(config) }),
    settings: { 'chat.disableAIFeatures': true },
  });
  // Let the workbench finish starting before the first measurement (2 cores here).
  await session.workbench.page.waitForTimeout(3000);
  return session;
}

/**
 * Drives the palette's probe of both targets (picked by default), `subsequent` only (the first time
 * `initial` is unticked, later the kinds are remembered), and reads the panel's statistics cells.
 */
export class PaletteProbe {
  private kindsPicked = false;

  constructor(private readonly session: Session) {}

  /** The panel's p50 and p99 cells (µs, from the ms they show) and the run the store saved. */
  async run(): Promise<{ panel: Record<TargetName, Record<Percentile, number>>; saved: SavedRun }> {
    const { page } = this.session.workbench;
    const before = new Set(savedRunFiles(this.session.server.userDataDir));
    await closeAllEditors(page);
    await runCommand(page, 'Probe database latency');
    await waitForQuickInputTitle(page, 'targets');
    await page.keyboard.press('Enter');
    await waitForQuickInputTitle(page, 'probe kinds');
    if (!this.kindsPicked) {
      await page
        .locator('.quick-input-widget .quick-input-list .monaco-list-row', {
          has: page.locator('.label-name', { hasText: /^initial$/ }),
        })
        .click();
      this.kindsPicked = true;
    }
    await page.keyboard.press('Enter');
    const frame = webviewFrame(page, { extensionId: EXTENSION_ID });
    const cellText = async (target: string, stat: string): Promise<string> => {
      const cell = frame.locator(
        `#stats-table tr[data-target="${target}"][data-kind="subsequent"] td[data-stat="${stat}"]`,
      );
      await cell.waitFor({ timeout: 120_000 });
      return ((await cell.textContent()) ?? '').trim();
    };
    const read = async (target: TargetName) => {
      const ms = async (stat: Percentile) => {
        const text = await cellText(target, stat);
        const value = Number(text);
        assert.ok(
          Number.isFinite(value) && value > 0,
          `${target} subsequent ${stat} in the panel is a number: "${text}"`,
        );
        return Math.round(value * 1000);
      };
      return { p50: await ms('p50'), p99: await ms('p99') };
    };
    const panel = { 'e2e-pg': await read('e2e-pg'), 'e2e-redis': await read('e2e-redis') };
    const saved = await newSavedRun(this.session.server.userDataDir, before);
    return { panel, saved };
  }
}

/** The same config through the CLI (same kinds, iterations and order), with its whole result. */
export function probeFromCli(workspace: string): { figures: Figures; result: SavedRun } {
  const out = execFileSync(
    CLI_NODE(),
    [CLI, 'run', '--config', 'dbprobe.json', '--format', 'json', '--quiet'],
    {
      cwd: workspace,
      encoding: 'utf8',
      timeout: 300_000,
      maxBuffer: 64 << 20,
    },
  );
  const result = JSON.parse(out) as SavedRun;
  return { figures: figuresOf(result, 'the CLI'), result };
}

/** Each target's `subsequent` figures from a result. */
export function figuresOf(result: SavedRun, who: string): Figures {
  const read = (target: TargetName) => {
    const m = result.measurements.find((x) => x.target === target && x.kind === 'subsequent');
    assert.ok(m && m.stats.count > 0, `${who} measured ${target} subsequent`);
    return { p50: m.stats.p50Us, p99: m.stats.p99Us, count: m.stats.count };
  };
  return { 'e2e-pg': read('e2e-pg'), 'e2e-redis': read('e2e-redis') };
}

/** The saved runs' files of the workspace's storage (`.../workspaceStorage/<id>/<ext>/runs/<uuid>.json`). */
export function savedRunFiles(userDataDir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string, depth: number) => {
    if (depth > 6 || !fs.existsSync(folder)) return;
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file, depth + 1);
      else if (path.basename(folder) === 'runs' && /^[0-9a-f-]{36}\.json$/.test(entry.name)) found.push(file);
    }
  };
  walk(path.join(userDataDir, 'User', 'workspaceStorage'), 0);
  return found;
}

/** The one run saved since `before` was listed (the store writes it as the panel shows it). */
async function newSavedRun(userDataDir: string, before: ReadonlySet<string>): Promise<SavedRun> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const fresh = savedRunFiles(userDataDir).filter((f) => !before.has(f));
    if (fresh.length === 1) {
      try {
        return JSON.parse(fs.readFileSync(fresh[0]!, 'utf8')) as SavedRun;
      } catch {
        // Still being written: read it again below.
      }
    }
    assert.ok(fresh.length <= 1, `one run was saved by one probe (found ${fresh.length})`);
    assert.ok(Date.now() < deadline, "the panel's run was saved within 20 s of its figures showing");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
