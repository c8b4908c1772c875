/**
 * End to end: the editor measures as cleanly as the CLI. The same PostgreSQL and Redis targets (the
 * testbed's, one dbprobe.json) are probed from the palette and from the `dbprobe` CLI back to back,
 * three times alternating (CLI, palette, CLI, ...); each time the panel's `subsequent` p50 must lie
 * within 10% of the CLI's (the mean of the CLI runs just before and after it). Both targets are
 * reached through toxiproxy with 1 ms of latency (see INJECTED_MS).
 * The editor's probes run in their own thread (src/worker/), so its figures no longer carry the
 * extension host's event-loop delay. Every pair of figures is printed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { createToxiProxy, type ToxiProxy } from '../fixtures/toxiproxy';
import type { Workbench } from './harness/browser';
import { closeAllEditors, runCommand, waitForQuickInputTitle, webviewFrame } from './extensionPage';
import { EXTENSION_ID, RESULTS, ROOT, env, loadEnvironment, withFailureScreenshot } from './extensionSetup';
import { openSession, type Session } from './extensionSession';

const PANEL = { extensionId: EXTENSION_ID };
const TARGETS = ['e2e-pg', 'e2e-redis'] as const;
const ROUNDS = 3;
/** The Done-means bound of issue 12: the panel's p50 within 10% of the CLI's. */
const TOLERANCE = 0.1;
const CLI = path.join(ROOT, 'dist', 'cli.js');
/**
 * The CLI runs on the Node that runs code-server (scripts/e2e/setup.sh), so the two figures differ
 * only in where the engine runs, not in the runtime: Node 20 and 24 alone differ by more than 10% here.
 */
const CLI_NODE = process.env.DBPROBE_NODE24_BIN ?? process.execPath;

/**
 * Both targets sit behind toxiproxy with 1 ms of downstream latency, so each query is a round trip of
 * a known length. A bare localhost round trip (25 to 60 µs here) moves by more than 10% with nothing
 * but this shared machine's load and its cores' sleep states, run to run seconds apart; against
 * ~1.1 ms that noise is a few percent, and what is left to compare is what the editor adds.
 */
const INJECTED_MS = 1;
const proxies: ToxiProxy[] = [];

/** A toxiproxy in front of the server of `url`, with the injected latency; the URL through it. */
async function slowed(url: string, label: string): Promise<string> {
  const target = new URL(url);
  const proxy = await createToxiProxy(env('DBPROBE_TEST_TOXIPROXY_URL'), target.host, label);
  proxies.push(proxy);
  await proxy.addToxic('latency', { latency: INJECTED_MS, jitter: 0 });
  target.port = String(proxy.port);
  return target.toString();
}

let session: Session | undefined;
let workbench: Workbench;
let workspace: string;
const figures: Record<string, string | number> = {};
const onFailureScreenshot = withFailureScreenshot(() => workbench?.page);

before(async () => {
  loadEnvironment();
  if (!fs.existsSync(CLI))
    execFileSync('node', ['esbuild.js', '--production', '--only=cli'], { cwd: ROOT, stdio: 'inherit' });
  // One config for both: env: references resolve from code-server's environment (inherited from
  // this process) in the editor and from the CLI's own.
  process.env.DBPROBE_E2E_VSCLI_PG_URL = await slowed(env('DBPROBE_TEST_PG_URL'), 'vscli_pg');
  process.env.DBPROBE_E2E_VSCLI_REDIS_URL = await slowed(env('DBPROBE_TEST_REDIS_URL'), 'vscli_redis');
  const config = {
    targets: [
      { name: 'e2e-pg', driver: 'pg', connection: 'env:DBPROBE_E2E_VSCLI_PG_URL' },
      { name: 'e2e-redis', driver: 'ioredis', connection: 'env:DBPROBE_E2E_VSCLI_REDIS_URL' },
    ],
    kinds: ['subsequent'],
    // About 2 s per target and run; a p50 of 1,500 round trips is steady to a few µs.
    iterations: 1500,
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
  for (const proxy of proxies) await proxy.remove();
  console.log(`e2e editor vs CLI figures: ${JSON.stringify(figures)}`);
});

type P50s = Record<(typeof TARGETS)[number], number>;

let kindsPicked = false;

/**
 * The palette's probe of both targets (picked by default), `subsequent` only: the first time `initial`
 * is unticked, later the kinds are remembered. p50s in µs.
 */
async function probeFromPalette(): Promise<P50s> {
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
  const p50 = async (target: string) => {
    const cell = frame.locator(
      `#stats-table tr[data-target="${target}"][data-kind="subsequent"] td[data-stat="p50"]`,
    );
    await cell.waitFor({ timeout: 120_000 });
    const text = (await cell.innerText()).trim();
    const ms = Number(text);
    assert.ok(Number.isFinite(ms) && ms > 0, `${target} subsequent p50 in the panel is a number: "${text}"`);
    return Math.round(ms * 1000);
  };
  return { 'e2e-pg': await p50('e2e-pg'), 'e2e-redis': await p50('e2e-redis') };
}

/** The same config through the CLI (same kinds, iterations and order); p50s in µs from its JSON. */
function probeFromCli(): P50s {
  const out = execFileSync(
    CLI_NODE,
    [CLI, 'run', '--config', 'dbprobe.json', '--format', 'json', '--quiet'],
    { cwd: workspace, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 << 20 },
  );
  const result = JSON.parse(out) as {
    measurements: { target: string; kind: string; stats: { p50Us: number; count: number } }[];
  };
  const p50 = (target: string) => {
    const m = result.measurements.find((x) => x.target === target && x.kind === 'subsequent');
    assert.ok(m && m.stats.count > 0, `the CLI measured ${target} subsequent`);
    return m.stats.p50Us;
  };
  return { 'e2e-pg': p50('e2e-pg'), 'e2e-redis': p50('e2e-redis') };
}

test(
  `the panel's subsequent p50 lies within ${TOLERANCE * 100}% of the CLI's, ${ROUNDS} times alternating`,
  onFailureScreenshot(async () => {
    // CLI, palette, CLI, palette, ...: each palette run is compared with the mean of the CLI runs just
    // before and just after it, so a slow drift of this shared machine's load does not count against
    // the editor. The two CLI runs' own spread is printed too: it is the machine's noise floor.
    const misses: string[] = [];
    let before = probeFromCli();
    for (let round = 1; round <= ROUNDS; round++) {
      const panel = await probeFromPalette();
      const after = probeFromCli();
      for (const target of TARGETS) {
        const cli = (before[target] + after[target]) / 2;
        const ratio = panel[target] / cli;
        const line =
          `round ${round} ${target} subsequent p50: panel ${panel[target]} us, CLI ${cli} us ` +
          `(runs before and after: ${before[target]} and ${after[target]} us); panel/CLI ${ratio.toFixed(3)}`;
        console.log(line);
        figures[`r${round}-${target}`] = `${panel[target]}/${before[target]}/${after[target]}`;
        if (Math.abs(ratio - 1) > TOLERANCE) misses.push(line);
      }
      before = after;
    }
    await workbench.page.screenshot({ path: path.join(RESULTS, 'panel-vs-cli.png') });
    assert.deepEqual(misses, [], `every panel p50 within ${TOLERANCE * 100}% of the CLI's`);
  }),
);
