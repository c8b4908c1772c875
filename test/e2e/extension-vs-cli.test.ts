/**
 * End to end: the editor measures as cleanly as the CLI. The same PostgreSQL and Redis targets (the
 * testbed's, on plain loopback: one dbprobe.json) are probed from the palette and from the `dbprobe`
 * CLI back to back, three times alternating (CLI, palette, CLI, ...). What the editor adds is bounded
 * in microseconds, at p50 and at p99: the panel's figure minus the CLI's (the mean of the CLI runs just
 * before and after it) must stay within a fixed allowance plus the spread of those two CLI runs (the
 * machine's own noise, measured in the same minute) in the median of the rounds. The allowances come from the figures of several
 * runs on this machine (printed by every run; see ADDED_US). The editor's probes run in their own
 * thread (src/worker/), so its figures carry no extension-host event-loop delay.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Workbench } from './harness/browser';
import { closeAllEditors, runCommand, waitForQuickInputTitle, webviewFrame } from './extensionPage';
import { EXTENSION_ID, RESULTS, ROOT, env, loadEnvironment, withFailureScreenshot } from './extensionSetup';
import { openSession, type Session } from './extensionSession';

const PANEL = { extensionId: EXTENSION_ID };
const TARGETS = ['e2e-pg', 'e2e-redis'] as const;
const ROUNDS = 3;
/**
 * What the editor may add to a figure, in µs, beyond the CLI runs' own spread, from the figures of
 * several runs on this 2-core machine (18 panel/CLI pairs over three runs, at load 2 to 11):
 * - p50: the panel read from 44 µs below the CLI to 1 µs above (both are 50 to 150 µs round trips);
 *   15 µs of allowance, so a per-query cost of a few tens of µs in the editor's thread fails;
 * - p99: the panel read from 1.6 ms below to 1.35 ms above the CLI: the probe thread shares two cores
 *   with the workbench drawing the run's live progress, and the tail shows it. 2 ms of allowance.
 */
const ADDED_US = { p50: 15, p99: 2_000 } as const;
const PERCENTILES = ['p50', 'p99'] as const;
const CLI = path.join(ROOT, 'dist', 'cli.js');
/**
 * The CLI runs on the Node that runs code-server (scripts/e2e/setup.sh), so the two figures differ
 * only in where the engine runs, not in the runtime: Node 20 and 24 alone differ by more than 10% here.
 */
const CLI_NODE = process.env.DBPROBE_NODE24_BIN ?? process.execPath;

let session: Session | undefined;
let workbench: Workbench;
let workspace: string;
const figures: Record<string, string | number> = {};
const onFailureScreenshot = withFailureScreenshot(
  () => workbench?.page,
  () => session?.server.userDataDir,
);

before(async () => {
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
    // Under a second per target and run; 3,000 samples put 30 beyond the p99.
    iterations: 3000,
    warmup: 100,
  };
  session = await openSession({
    name: 'vs-cli',
    figures,
    files: () => ({ 'dbprobe.json': JSON.stringify(config) }),
    settings: { 'chat.disableAIFeatures': true },
  });
  ({ workbench, workspace } = session);
  // Let the workbench finish starting before the first measurement (2 cores here).
  await workbench.page.waitForTimeout(3000);
});

after(async () => {
  await session?.close();
  console.log(`e2e editor vs CLI figures: ${JSON.stringify(figures)}`);
});

type Percentile = (typeof PERCENTILES)[number];
type Figures = Record<(typeof TARGETS)[number], Record<Percentile, number>>;

let kindsPicked = false;

/**
 * The palette's probe of both targets (picked by default), `subsequent` only: the first time `initial`
 * is unticked, later the kinds are remembered. p50s in µs.
 */
async function probeFromPalette(): Promise<Figures> {
  const { page } = workbench;
  await closeAllEditors(page);
  await runCommand(page, 'Probe database latency');
  await waitForQuickInputTitle(page, 'targets');
  await page.keyboard.press('Enter');
  await waitForQuickInputTitle(page, 'probe kinds');
  if (!kindsPicked) {
    await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row', {
        has: page.locator('.label-name', { hasText: /^initial$/ }),
      })
      .click();
    kindsPicked = true;
  }
  await page.keyboard.press('Enter');
  const frame = webviewFrame(page, PANEL);
  const read = async (target: string, stat: Percentile) => {
    const cell = frame.locator(
      `#stats-table tr[data-target="${target}"][data-kind="subsequent"] td[data-stat="${stat}"]`,
    );
    await cell.waitFor({ timeout: 120_000 });
    const text = ((await cell.textContent()) ?? '').trim();
    const ms = Number(text);
    assert.ok(
      Number.isFinite(ms) && ms > 0,
      `${target} subsequent ${stat} in the panel is a number: "${text}"`,
    );
    return Math.round(ms * 1000);
  };
  const both = async (target: string) => ({ p50: await read(target, 'p50'), p99: await read(target, 'p99') });
  return { 'e2e-pg': await both('e2e-pg'), 'e2e-redis': await both('e2e-redis') };
}

/** The same config through the CLI (same kinds, iterations and order); µs from its JSON. */
function probeFromCli(): Figures {
  const out = execFileSync(
    CLI_NODE,
    [CLI, 'run', '--config', 'dbprobe.json', '--format', 'json', '--quiet'],
    { cwd: workspace, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 << 20 },
  );
  const result = JSON.parse(out) as {
    measurements: { target: string; kind: string; stats: { p50Us: number; p99Us: number; count: number } }[];
  };
  const read = (target: string) => {
    const m = result.measurements.find((x) => x.target === target && x.kind === 'subsequent');
    assert.ok(m && m.stats.count > 0, `the CLI measured ${target} subsequent`);
    return { p50: m.stats.p50Us, p99: m.stats.p99Us };
  };
  return { 'e2e-pg': read('e2e-pg'), 'e2e-redis': read('e2e-redis') };
}

test(
  `the editor adds at most ${ADDED_US.p50} µs at p50 and ${ADDED_US.p99} µs at p99 to the CLI's figures (beyond their own spread), ${ROUNDS} times alternating`,
  onFailureScreenshot(async () => {
    // CLI, palette, CLI, palette, ...: each palette run is set against the mean of the CLI runs just
    // before and just after it, so a slow drift of this shared machine's load does not count against
    // the editor, and the two CLI runs' own spread is the noise the bound allows on top.
    // Per target and percentile, each round's excess over its allowance plus spread. The bound holds on
    // the median round: a cost the editor adds every time shows in every round (and so in the median),
    // while one round caught in a burst of the shared machine's load does not decide alone.
    const excess = new Map<string, { value: number; line: string }[]>();
    let before = probeFromCli();
    for (let round = 1; round <= ROUNDS; round++) {
      const panel = await probeFromPalette();
      const after = probeFromCli();
      for (const target of TARGETS) {
        for (const stat of PERCENTILES) {
          const cli = (before[target][stat] + after[target][stat]) / 2;
          const spread = Math.abs(before[target][stat] - after[target][stat]);
          const added = panel[target][stat] - cli;
          const line =
            `round ${round} ${target} subsequent ${stat}: panel ${panel[target][stat]} us, CLI ${cli} us ` +
            `(runs before and after: ${before[target][stat]} and ${after[target][stat]} us); added ${added.toFixed(1)} us ` +
            `(allowed ${ADDED_US[stat]} + spread ${spread} us)`;
          console.log(line);
          figures[`r${round}-${target}-${stat}`] =
            `${panel[target][stat]}/${before[target][stat]}/${after[target][stat]}`;
          const key = `${target} ${stat}`;
          excess.set(key, [...(excess.get(key) ?? []), { value: added - ADDED_US[stat] - spread, line }]);
        }
      }
      before = after;
    }
    const misses: string[] = [];
    for (const [key, rounds] of excess) {
      const sorted = [...rounds].sort((a, b) => a.value - b.value);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      if (median.value > 0) misses.push(`${key}, median round: ${median.line}`);
    }
    await workbench.page.screenshot({ path: path.join(RESULTS, 'panel-vs-cli.png') });
    assert.deepEqual(
      misses,
      [],
      "what the editor adds stays within its allowance plus the CLI runs' spread, in the median round",
    );
  }),
);
