/**
 * End to end: the answer first. Five targets over four testbed servers (pg, pg over TLS with its CA,
 * mysql2, ioredis, PlanetScale's HTTP API through ps-http-sim), initial + subsequent, probed from a
 * file the user is in, with `dbprobe.appRttMs` = 12:
 * - at 1440x900, the panel beside the editor: its first viewport holds the verdict strip and every
 *   card's p50 and p99 here and at 12 ms; the strip's lines are judgeRun's for the saved result, and
 *   each card's figure at 12 ms is the saved result's projection there (projectAt), both read back
 *   from the saved JSON;
 * - at 900x900 with the sidebar open (the panel ~270 px wide), the Statistics figures are on screen:
 *   visible, inside the panel, not in a column to scroll to;
 * - screenshots of the first viewport in Dark+, Light+ and Dark High Contrast, kept in docs/images
 *   by DBPROBE_E2E_DOCS=1 (docs/extension.md shows them).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { shortMs } from '../../src/shared/judgement/shortMs';
import { projectRun } from '../../src/shared/projection';
import type { RunResult } from '../../src/shared/result';
import { ms } from '../../src/shared/units';
import { pickInQuickInput, probeWithDefaults, runCommand, webviewFrame } from './extensionPage';
import { EXTENSION_ID, RESULTS, ROOT, env, textFilesUnder, withFailureScreenshot } from './extensionSetup';
import { openSession, type Session } from './extensionSession';

const PANEL = { extensionId: EXTENSION_ID };
const APP_RTT_MS = 12;
const ITERATIONS = 100;
const TARGETS = ['local-pg', 'local-pg-tls', 'local-mysql', 'local-redis', 'planetscale-http'];
const DOCS_IMAGES = path.join(ROOT, 'docs', 'images');

let session: Session | undefined;
const figures: Record<string, string | number> = {};
const onFailureScreenshot = withFailureScreenshot(
  () => session?.workbench.page,
  () => session?.server.userDataDir,
);
const page = (): Page => {
  assert.ok(session, 'the session started');
  return session.workbench.page;
};

/** The testbed's MariaDB and ps-http-sim besides pg and redis (loadEnvironment starts only those two). */
function startServers(): void {
  if (process.env.DBPROBE_TEST_PS_URL && process.env.DBPROBE_TEST_MYSQL_URL) return;
  const out = execFileSync(
    'bash',
    ['-c', 'eval "$(bash scripts/testbed/up.sh pg redis mysql pssim)" && env -0'],
    { cwd: ROOT, maxBuffer: 16 << 20, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  for (const pair of out.toString().split('\0')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.startsWith('DBPROBE_')) process.env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
}

before(async () => {
  startServers();
  session = await openSession({
    name: 'verdict',
    figures,
    settings: { 'workbench.colorTheme': 'Default Dark+', 'dbprobe.appRttMs': APP_RTT_MS },
    files: () => {
      // Read by the extension host from its environment (inherited from code-server's).
      process.env.DBPROBE_VERDICT_PG_URL = env('DBPROBE_TEST_PG_URL');
      process.env.DBPROBE_VERDICT_PG_TLS_URL = env('DBPROBE_TEST_PG_TLS_URL');
      process.env.DBPROBE_VERDICT_MYSQL_URL = env('DBPROBE_TEST_MYSQL_URL');
      process.env.DBPROBE_VERDICT_REDIS_URL = env('DBPROBE_TEST_REDIS_URL');
      process.env.DBPROBE_VERDICT_PS_URL = env('DBPROBE_TEST_PS_URL');
      const target = (name: string, driver: string, variable: string, extra: object = {}) => ({
        name,
        driver,
        connection: `env:${variable}`,
        ...extra,
      });
      return {
        'dbprobe.json': JSON.stringify(
          {
            targets: [
              target('local-pg', 'pg', 'DBPROBE_VERDICT_PG_URL'),
              target('local-pg-tls', 'pg', 'DBPROBE_VERDICT_PG_TLS_URL', {
                tls: { caFile: env('DBPROBE_TEST_CA_FILE') },
              }),
              target('local-mysql', 'mysql2', 'DBPROBE_VERDICT_MYSQL_URL'),
              target('local-redis', 'ioredis', 'DBPROBE_VERDICT_REDIS_URL'),
              target('planetscale-http', 'planetscale', 'DBPROBE_VERDICT_PS_URL'),
            ],
            kinds: ['initial', 'subsequent'],
            iterations: ITERATIONS,
            warmup: 2,
          },
          null,
          2,
        ),
        'queries.sql': 'SELECT 1;\n',
      };
    },
  });
});

after(async () => {
  await session?.close();
  console.log(`e2e verdict figures: ${JSON.stringify(figures)}`);
});

function savedResult(): RunResult {
  assert.ok(session);
  const runs = textFilesUnder(session.server.userDataDir, /\.json$/).filter((t) =>
    t.includes('"schema":"dbprobe.run/v1"'),
  );
  assert.equal(runs.length, 1, 'one saved run');
  return JSON.parse(runs[0]!) as RunResult;
}

/** The panel's frame element on the page: what of the webview is on screen. */
async function panelBox(p: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await p.locator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).boundingBox();
  assert.ok(box, 'the panel is on screen');
  return box;
}

/** Whether `locator` is visible and lies wholly inside `box` (the panel's part of the screen). */
async function onScreen(locator: Locator, box: { x: number; y: number; width: number; height: number }) {
  if (!(await locator.isVisible())) return false;
  const own = await locator.boundingBox();
  return (
    own !== null &&
    own.width > 0 &&
    own.x >= box.x - 1 &&
    own.y >= box.y - 1 &&
    own.x + own.width <= box.x + box.width + 1 &&
    own.y + own.height <= box.y + box.height + 1
  );
}

async function openFile(p: Page, name: string): Promise<void> {
  await runCommand(p, 'Go to File...');
  await p.keyboard.type(name);
  await p
    .locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: name })
    .first()
    .waitFor({ timeout: 15_000 });
  await p.keyboard.press('Enter');
  await p.locator('.editor-instance .monaco-editor').first().waitFor({ timeout: 15_000 });
}

/** The panel's part of the page, as a PNG for the docs: its first viewport only. */
async function shoot(p: Page, name: string): Promise<void> {
  const clip = await panelBox(p);
  const file = path.join(RESULTS, name);
  await p.screenshot({ path: file, clip });
  if (process.env.DBPROBE_E2E_DOCS === '1') {
    fs.mkdirSync(DOCS_IMAGES, { recursive: true });
    fs.copyFileSync(file, path.join(DOCS_IMAGES, name));
  }
}

test(
  'beside the editor at 1440x900, the first viewport holds the verdict and every card’s p50/p99 here and at the app RTT',
  onFailureScreenshot(async () => {
    const p = page();
    await p.setViewportSize({ width: 1440, height: 900 });
    await runCommand(p, 'View: Show Explorer');
    await openFile(p, 'queries.sql');
    await probeWithDefaults(p);
    const frame = webviewFrame(p, PANEL);
    // The strip follows the first paint (it resamples the run): wait for its lines.
    await frame.locator('#verdict .verdict-pick').first().waitFor({ timeout: 180_000 });

    const result = savedResult();
    assert.deepEqual(
      result.targets.map((t) => t.name),
      TARGETS,
    );
    const judgement = judgeRun(result, { appRttMs: APP_RTT_MS });
    assert.ok(judgement.rankings.length >= 2, `ranked: ${judgement.lines.join(' | ')}`);
    // The strip states judgeRun's ranking lines, in its order, word for word.
    const shown = (await frame.locator('#verdict .verdict-pick').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(
      shown,
      judgement.rankings.map((r) => r.sentence),
    );
    figures.verdict = JSON.stringify(judgement.lines);

    // Each card's p50 at the app RTT is the saved result's projection there, and the figure the
    // ranking at the app RTT ranks.
    const projected = projectRun(result, { rttsMs: [APP_RTT_MS] });
    for (const t of projected.targets) {
      for (const kind of ['initial', 'subsequent'] as const) {
        const at = t[`${kind}AtUs`]?.[0];
        if (at === undefined) continue;
        const lower = t[kind]?.lowerBound ? '≥ ' : '';
        const cell = frame.locator(
          `.card[data-target="${t.target}"] tr[data-kind="${kind}"] td[data-stat="app p50"]`,
        );
        assert.equal(
          (await cell.innerText()).trim(),
          `${lower}${shortMs(at)}`,
          `${t.target} ${kind} at 12 ms`,
        );
      }
    }
    const atApp = judgement.rankings.find((r) => r.question === 'new connection' && r.at === 'app');
    assert.ok(atApp, 'a ranking of new connections at the app RTT');
    for (const entry of atApp.groups.flat()) {
      const target = projected.targets.find((x) => x.target === entry.target);
      assert.equal(
        entry.p50Us,
        target?.initialAtUs?.[0],
        `${entry.target}: the ranking ranks the projection`,
      );
    }
    // The cards follow that ranking (the default pick with an app RTT).
    const order = await frame
      .locator('#cards .card')
      .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-target')));
    assert.deepEqual(
      order.slice(0, atApp.groups.flat().length),
      atApp.groups.flat().map((e) => e.target),
    );

    // The first viewport: the strip and every card's figures, here and at 12 ms, without scrolling.
    const box = await panelBox(p);
    figures.panelWidth = Math.round(box.width);
    figures.panelHeight = Math.round(box.height);
    assert.ok(
      box.width > 480 && box.width < 620,
      `the panel beside the editor is ~540 px wide: ${box.width}`,
    );
    assert.ok(
      await onScreen(frame.locator('#verdict .verdict-lines'), box),
      'the verdict strip is on screen',
    );
    const stats = ['p50', 'p99', 'app p50', 'app p99'];
    for (const name of TARGETS) {
      for (const stat of stats) {
        const cells = frame.locator(`.card[data-target="${name}"] td[data-stat="${stat}"]`);
        const count = await cells.count();
        assert.ok(count > 0, `${name} shows ${stat}`);
        for (let i = 0; i < count; i++)
          assert.ok(await onScreen(cells.nth(i), box), `${name} ${stat} is in the first viewport`);
      }
    }
    // Every figure fits its cell: none runs into the next (fixed columns, numbers kept on one line).
    const crowded = await frame
      .locator('#cards .card-figures td')
      .evaluateAll((cells) =>
        cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent),
      );
    assert.deepEqual(crowded, [], 'no card figure overflows its cell');
    // The why: one click from the verdict.
    await frame.locator('#verdict .verdict-why-toggle').first().click();
    await frame.locator('#verdict .verdict-why:not([hidden]) li').first().waitFor();

    await frame.locator('#verdict .verdict-why-toggle').first().click();
    await shoot(p, 'panel-verdict-dark.png');
    for (const [theme, bodyClass, file] of [
      ['Light+', 'vscode-light', 'panel-verdict-light.png'],
      ['Dark High Contrast', 'vscode-high-contrast', 'panel-verdict-hc.png'],
    ] as const) {
      await runCommand(p, 'Preferences: Color Theme');
      await pickInQuickInput(p, theme);
      await frame.locator(`body.${bodyClass}`).waitFor({ timeout: 15_000 });
      await p.waitForTimeout(500);
      await shoot(p, file);
    }
  }),
);

test(
  'at 900x900 with the sidebar open, the Statistics figures are on screen in the narrow panel',
  onFailureScreenshot(async () => {
    const p = page();
    await p.setViewportSize({ width: 900, height: 900 });
    await runCommand(p, 'View: Show Explorer');
    const frame = webviewFrame(p, PANEL);
    const box = await panelBox(p);
    figures.narrowPanelWidth = Math.round(box.width);
    assert.ok(box.width < 340, `the panel is narrow: ${box.width} px`);
    const result = savedResult();
    for (const m of result.measurements) {
      const row = frame.locator(`#stats-table tr[data-target="${m.target}"][data-kind="${m.kind}"]`).first();
      await row.scrollIntoViewIfNeeded();
      for (const stat of ['p50', 'p95', 'p99']) {
        const cell = row.locator(`td[data-stat="${stat}"]`);
        assert.ok(await onScreen(cell, await panelBox(p)), `${m.target} ${m.kind} ${stat} is on screen`);
        assert.equal(
          (await cell.innerText()).trim(),
          ms(m.stats[`${stat}Us` as 'p50Us' | 'p95Us' | 'p99Us']),
          `${m.target} ${m.kind} ${stat}: the saved figure`,
        );
      }
    }
    await frame.locator('#stats').scrollIntoViewIfNeeded();
    await shoot(p, 'panel-narrow-stats.png');
  }),
);
