/**
 * End to end: the answer first. Five targets over four testbed servers (pg, pg over TLS with its CA,
 * mysql2, ioredis, PlanetScale's HTTP API through ps-http-sim), initial + subsequent, probed from a
 * file the user is in, first with no app location, then with `dbprobe.appRttMs` = 30:
 * - the first probe asks where the app runs (once); "I don't know" leaves the setting unset;
 * - at 1440x900 (the panel beside the editor, ~540 px), for each location: the first viewport holds
 *   the verdict's first line, its ranking table and the first row of cards; the table's fastest per
 *   question is the saved result's judgement there, the first line is its first line, and Export
 *   Markdown and `dbprobe report RUN.json [--app-rtt 30]` open with its lines, read as text; no
 *   element of the panel scrolls sideways and no figure of the table is cut;
 * - at 900x900 with the sidebar open (the panel ~270 px wide), the table lays each row out as
 *   labelled figures (nothing scrolls sideways, nothing cut, each figure with its unit and kind), and
 *   the Statistics figures are on screen;
 * - screenshots in Dark+, Light+ and Dark High Contrast and at 270 px, kept in docs/images by
 *   DBPROBE_E2E_DOCS=1 (docs/extension.md shows them).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { shortMs } from '../../src/shared/judgement/shortMs';
import { projectRun } from '../../src/shared/projection';
import type { RunResult } from '../../src/shared/result';
import { ms } from '../../src/shared/units';
import {
  acceptFileDialog,
  clickNotificationButton,
  goToFile,
  pickInQuickInput,
  probeWithDefaults,
  runCommand,
  waitForNotification,
  waitForQuickInputTitle,
  webviewFrame,
} from './extensionPage';
import { runCli } from '../helpers/cli';
import { EXTENSION_ID, RESULTS, ROOT, env, textFilesUnder, withFailureScreenshot } from './extensionSetup';
import { openSession, type Session } from './extensionSession';

const PANEL = { extensionId: EXTENSION_ID };
const APP_RTT_MS = 30;
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
    settings: { 'workbench.colorTheme': 'Default Dark+' },
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
  await goToFile(p, name);
}

/** The panel's part of the page, as a PNG for the docs: its first viewport only. */
async function shoot(p: Page, name: string): Promise<void> {
  // A toast (the export's) would cover the cards in the picture.
  await runCommand(p, 'Notifications: Clear All Notifications');
  const clip = await panelBox(p);
  const file = path.join(RESULTS, name);
  await p.screenshot({ path: file, clip });
  if (process.env.DBPROBE_E2E_DOCS === '1') {
    fs.mkdirSync(DOCS_IMAGES, { recursive: true });
    fs.copyFileSync(file, path.join(DOCS_IMAGES, name));
  }
}

/** Export Markdown of the panel's run, read back (the file removed, so the next export asks nothing). */
async function exportMarkdown(p: Page): Promise<string> {
  await runCommand(p, 'DB Probe: Export Run as Markdown');
  await waitForQuickInputTitle(p, 'Export DB Probe run as Markdown');
  const chosen = await acceptFileDialog(p);
  await waitForNotification(p, `exported to ${path.basename(chosen)}`);
  const markdown = fs.readFileSync(chosen, 'utf8');
  fs.rmSync(chosen);
  return markdown;
}

/** What these checks read of an element in the page (the Node side of the tests loads no DOM library). */
interface PageElement {
  tagName: string;
  className: string;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): { right: number };
  querySelectorAll(selector: string): Iterable<PageElement>;
  ownerDocument: {
    scrollingElement: PageElement | null;
    documentElement: PageElement;
    defaultView: { getComputedStyle(e: unknown, pseudo?: string): { overflowX: string; content: string } };
  };
}

/** Elements of the panel wider than their box that scroll (or the page itself): none may. */
async function sidewaysScrollers(frame: FrameLocator): Promise<string[]> {
  return frame.locator('body').evaluate((body) => {
    const el0 = body as unknown as PageElement;
    const doc = el0.ownerDocument;
    const found: string[] = [];
    const root = doc.scrollingElement;
    if (root && root.scrollWidth > root.clientWidth + 1)
      found.push(`the page (${root.scrollWidth} > ${root.clientWidth})`);
    for (const el of el0.querySelectorAll('#verdict *, #cards *')) {
      const style = doc.defaultView.getComputedStyle(el);
      if (!['auto', 'scroll'].includes(style.overflowX)) continue;
      if (el.scrollWidth > el.clientWidth + 1)
        found.push(`${el.tagName}.${el.className} (${el.scrollWidth} > ${el.clientWidth})`);
    }
    return found;
  });
}

/** Figures of the ranking table cut by their box (wider than it, or running past the panel). */
async function cutFigures(frame: FrameLocator): Promise<string[]> {
  return frame
    .locator('#verdict .ranking-table')
    .first()
    .evaluate((node) => {
      const table = node as unknown as PageElement;
      const width = table.ownerDocument.documentElement.clientWidth;
      return [...table.querySelectorAll('td, td > span')].flatMap((el) => {
        const box = el.getBoundingClientRect();
        return el.scrollWidth > el.clientWidth + 1 || box.right > width + 1 ? [el.textContent ?? ''] : [];
      });
    });
}

/**
 * For one app location: the first line, the table's fastest per question and Export Markdown's and
 * the CLI's first lines against the saved result's judgement; the first viewport; nothing sideways.
 */
async function checkVerdict(p: Page, appRttMs: number | undefined, tag: string): Promise<void> {
  const frame = webviewFrame(p, PANEL);
  const at = appRttMs === undefined ? 'here' : 'app';
  await frame.locator(`#verdict .ranking-table[data-at="${at}"]`).first().waitFor({ timeout: 180_000 });
  const result = savedResult();
  assert.deepEqual(
    result.targets.map((t) => t.name),
    TARGETS,
  );
  const judgement = judgeRun(result, appRttMs === undefined ? {} : { appRttMs });
  figures[`verdict${tag}`] = JSON.stringify(judgement.lines);
  assert.ok(judgement.rankings.length >= 2, `ranked: ${judgement.lines.join(' | ')}`);
  // The first line is the judgement's.
  assert.equal((await frame.locator('#verdict .verdict-first').innerText()).trim(), judgement.lines[0]);
  if (appRttMs === undefined && judgement.crossovers.length > 0)
    assert.match(judgement.lines[0]!, /ms RTT on: set where your app runs\.$/);
  // The table's fastest per question: the first group of the judgement's ranking at that location.
  const table = frame.locator('#verdict .ranking-table').first();
  const columns = (await table.locator('thead th').allInnerTexts()).slice(1);
  for (const ranking of judgement.rankings.filter(
    (r) => r.at === at && r.workload === judgement.rankings[0]!.workload,
  )) {
    const i = columns.findIndex((c) =>
      c.toLowerCase().startsWith(ranking.question === 'request' ? 'request' : ranking.question),
    );
    assert.ok(i >= 0, `a column for ${ranking.question}: ${columns.join(' | ')}`);
    const fastest = await table.locator('tbody tr').evaluateAll(
      (rows, col) =>
        rows.flatMap((row) => {
          const place = row.querySelectorAll('td')[col]?.getAttribute('data-place') ?? '';
          return /fastest|^tied$/.test(place) ? [row.getAttribute('data-target') ?? ''] : [];
        }),
      i,
    );
    assert.deepEqual(
      fastest.sort(),
      ranking.groups[0]!.map((e) => e.target).sort(),
      `${ranking.question} ${at}`,
    );
  }
  // Export Markdown and the CLI over the saved JSON open with the same lines, as text.
  const markdown = (await exportMarkdown(p)).split('\n');
  assert.deepEqual(
    markdown.filter((l) => l.startsWith('- ')).slice(0, judgement.lines.length),
    judgement.lines.map((l) => `- ${l}`),
  );
  const json = path.join(RESULTS, `verdict-run${tag}.json`);
  fs.writeFileSync(json, JSON.stringify(result));
  const cli = await runCli([
    'report',
    json,
    '--quiet',
    ...(appRttMs === undefined ? [] : ['--app-rtt', String(appRttMs)]),
  ]);
  assert.equal(cli.code, 0, cli.stderr);
  const stderr = await runCli([
    'report',
    json,
    '--out',
    path.join(RESULTS, `verdict-run${tag}.md`),
    ...(appRttMs === undefined ? [] : ['--app-rtt', String(appRttMs)]),
  ]);
  assert.deepEqual(stderr.stderr.split('\n').slice(0, judgement.lines.length), judgement.lines);

  // The first viewport: the first line, the table and the first row of cards, without scrolling.
  const box = await panelBox(p);
  figures[`panelWidth${tag}`] = Math.round(box.width);
  assert.ok(box.width > 480 && box.width < 620, `the panel beside the editor is ~540 px wide: ${box.width}`);
  assert.ok(await onScreen(frame.locator('#verdict .verdict-first'), box), 'the first line is on screen');
  assert.ok(await onScreen(table, box), 'the ranking table is on screen');
  const cards = frame.locator('#cards .card');
  const firstTop = (await cards.first().boundingBox())?.y;
  assert.ok(firstTop !== undefined, 'a card');
  let firstRow = 0;
  for (let i = 0; i < (await cards.count()); i++) {
    const own = await cards.nth(i).boundingBox();
    if (!own || Math.abs(own.y - firstTop) > 2) continue;
    firstRow += 1;
    assert.ok(await onScreen(cards.nth(i), box), `card ${i + 1} of the first row is in the first viewport`);
  }
  figures[`firstRowCards${tag}`] = firstRow;
  assert.deepEqual(await sidewaysScrollers(frame), [], 'nothing scrolls sideways at ~540 px');
  assert.deepEqual(await cutFigures(frame), [], 'no figure of the table is cut at ~540 px');
}

test(
  'the first probe asks where the app runs; at 1440x900 the first viewport holds the verdict table for it',
  onFailureScreenshot(async () => {
    const p = page();
    await p.setViewportSize({ width: 1440, height: 900 });
    await runCommand(p, 'View: Show Explorer');
    await openFile(p, 'queries.sql');
    await probeWithDefaults(p);
    // Asked once, as the first run starts: "I don't know" keeps the setting unset.
    await clickNotificationButton(p, 'where does your app run', 'I don’t know');
    await checkVerdict(p, undefined, 'Unset');
    await shoot(p, 'panel-verdict-unset.png');

    // Where the app runs, set: the panel redraws for it; every surface answers for it first.
    const settingsDir = path.join(session!.workspace, '.vscode');
    fs.mkdirSync(settingsDir, { recursive: true });
    fs.writeFileSync(
      path.join(settingsDir, 'settings.json'),
      JSON.stringify({ 'dbprobe.appRttMs': APP_RTT_MS }),
    );
    await checkVerdict(p, APP_RTT_MS, 'App');
    const frame = webviewFrame(p, PANEL);
    // Each card's p50 at the app RTT is the saved result's projection there.
    const result = savedResult();
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
          `${t.target} ${kind} at ${APP_RTT_MS} ms`,
        );
      }
    }
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
    await runCommand(p, 'Preferences: Color Theme');
    await pickInQuickInput(p, 'Dark+');
    await frame.locator('body.vscode-dark').waitFor({ timeout: 15_000 });
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
    // The table reflows: every figure in the panel, with its kind before it and its unit in it.
    await frame.locator('#verdict .ranking-table').first().scrollIntoViewIfNeeded();
    assert.deepEqual(await sidewaysScrollers(frame), [], 'nothing scrolls sideways at ~270 px');
    assert.deepEqual(await cutFigures(frame), [], 'no figure of the table is cut at ~270 px');
    const cells = frame.locator('#verdict .ranking-table td');
    for (let i = 0; i < (await cells.count()); i++) {
      const cell = cells.nth(i);
      const label = await cell.evaluate((node) => {
        const el = node as unknown as PageElement;
        return el.ownerDocument.defaultView.getComputedStyle(el, '::before').content;
      });
      assert.match(label, /^"(new connection|warm query|request of \d+ queries)/, 'the kind is shown');
      assert.match(await cell.innerText(), /\d ms/, 'the unit is shown');
    }
    await shoot(p, 'panel-verdict-narrow.png');
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
