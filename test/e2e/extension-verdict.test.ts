/**
 * End to end: the answer first. Five targets over four testbed servers (pg, pg over TLS with its CA,
 * mysql2, ioredis, PlanetScale's HTTP API through ps-http-sim), initial + subsequent, probed from a
 * file the user is in, first with no app location, then with `dbprobe.appRttMs` = 30:
 * - the first probe asks where the app runs (once); "I don't know" leaves the setting unset;
 * - at 1440x900 (the panel beside the editor, ~540 px), for each location: the first viewport holds
 *   the verdict's first line, its ranking table and the first row of cards (their bottoms above the
 *   viewport's); the table's fastest per question is the saved result's judgement there, the first
 *   line is its first line, and Export Markdown, `dbprobe report RUN.json [--app-rtt 30]`, the status
 *   bar and the Runs row open with its lines, read as text (the Runs row judged again when the
 *   location changes); no element of the panel scrolls sideways and no figure is cut;
 * - the target alone in its workload (redis) is shown apart: said once, in no section that sets
 *   targets against each other;
 * - at 900x900 with a 270 px sidebar (the panel ~290 px wide), the table lays each row out as
 *   labelled figures (nothing scrolls sideways, nothing cut, each figure with its unit and kind), and
 *   the Statistics figures are on screen; in the sidebar, the Runs row shows its verdict's first
 *   words, each Targets row its warm-query figure at the app then here, and a target the heartbeat
 *   found down is marked so;
 * - screenshots in Dark+, Light+ and Dark High Contrast, at 270 px and of the sidebar, kept in
 *   docs/images by DBPROBE_E2E_DOCS=1 (docs/extension.md shows them).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
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
import {
  beforeContent,
  cutFigures,
  everySection,
  inFirstViewport,
  onScreen,
  sidewaysScrollers,
} from './panelGeometry';
import { paneOf, readUntil, setSidebarWidth, showDbProbeSidebar, treeRows } from './sidebarViews';
import { targetFigure } from '../../src/extension/views/targetFigure';
import { projectTarget } from '../../src/shared/projection';
import type { RunJudgement } from '../../src/shared/judgement/judgeRun';

const PANEL = { extensionId: EXTENSION_ID };
const APP_RTT_MS = 30;
const ITERATIONS = 100;
const TARGETS = ['local-pg', 'local-pg-tls', 'local-mysql', 'local-redis', 'planetscale-http'];
const DOCS_IMAGES = path.join(ROOT, 'docs', 'images');
const SIDEBAR_PX = 270;
/** A target whose port refuses every connection: what the heartbeat finds down. */
const DOWN_TARGET = 'refusing-pg';

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

/** A loopback port nothing listens on: bound once by the test, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let refusingPort = 0;

before(async () => {
  startServers();
  refusingPort = await closedPort();
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
      process.env.DBPROBE_VERDICT_DOWN_URL = `postgres://dbprobe:none@127.0.0.1:${refusingPort}/dbprobe`;
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

/**
 * For one app location: the first line, the table's fastest per question and Export Markdown's and
 * the CLI's first lines against the saved result's judgement; the first viewport; nothing sideways.
 */
async function checkVerdict(p: Page, appRttMs: number | undefined, tag: string): Promise<RunJudgement> {
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
  assert.ok(await inFirstViewport(p, table), "the ranking table ends above the viewport's bottom");
  const cards = frame.locator('#cards .card');
  const firstTop = (await cards.first().boundingBox())?.y;
  assert.ok(firstTop !== undefined, 'a card');
  let firstRow = 0;
  for (let i = 0; i < (await cards.count()); i++) {
    const card = cards.nth(i);
    const own = await card.boundingBox();
    if (!own || Math.abs(own.y - firstTop) > 2) continue;
    firstRow += 1;
    assert.ok(await onScreen(card, box), `card ${i + 1} of the first row is in the panel`);
    assert.ok(
      await inFirstViewport(p, card),
      `card ${i + 1} of the first row ends above the viewport's bottom`,
    );
    // Each figure's kind beside it: the row's head, on screen with the figure.
    for (const row of await card.locator('tr.card-kind').all())
      assert.match(await row.locator('th.kind').innerText(), /^(initial|subsequent)/, 'the kind is named');
  }
  figures[`firstRowCards${tag}`] = firstRow;
  assert.ok(firstRow >= 2, `a first row of cards: ${firstRow}`);
  assert.deepEqual(await sidewaysScrollers(frame), [], 'nothing scrolls sideways at ~540 px');
  assert.deepEqual(await cutFigures(frame), [], 'no figure is cut at ~540 px');
  const whole = await everySection(frame);
  assert.deepEqual(whole.sideways, [], 'no section scrolls sideways at ~540 px');
  assert.deepEqual(whole.cut, [], 'no figure of any section is cut at ~540 px');
  return judgement;
}

/**
 * The status bar and the Runs view lead with the same answer for the app location set now: the
 * first line in one line, the winner first (the judgement's short form), the whole line in the Runs
 * row's tooltip. After a change of location they are judged again (a row kept from before would be
 * stale).
 */
async function checkStatusAndRuns(p: Page, judgement: RunJudgement, tag: string): Promise<void> {
  const first = judgement.lines[0]!;
  const expected = judgement.short!;
  const status = p.locator('.statusbar-item[id$="dbprobe.lastRun"]');
  const shown = await readUntil(
    async () => (await status.innerText()).trim(),
    (text) => text === expected,
  );
  figures[`statusBar${tag}`] = shown;
  assert.equal(shown, expected, "the status bar states the first line's answer in one line");
  await showDbProbeSidebar(p);
  const rows = await readUntil(
    () => treeRows(p, 'Runs'),
    (r) => r[0]?.label === expected,
  );
  figures[`runsRow${tag}`] = rows[0]?.label ?? '';
  assert.equal(rows.length, 1, 'one run');
  assert.equal(rows[0]!.label, expected, "the Runs row leads with the first line's answer");
  assert.ok(rows[0]!.aria.startsWith(expected), `the row's aria label reads it first: ${rows[0]!.aria}`);
  // The whole first line is the row's tooltip, as the mouse finds it.
  await paneOf(p, 'Runs').locator('.monaco-list-row').first().hover();
  const hover = p.locator('.monaco-hover, .workbench-hover', { hasText: first }).first();
  await hover.waitFor({ timeout: 15_000 });
  await p.mouse.move(0, 0);
  await runCommand(p, 'View: Show Explorer');
}

/**
 * The target alone in its workload (local-redis, PING) is shown apart: one line says so, once in the
 * panel, and it is in none of the sections that set targets against each other (the ranking, the
 * projection, the request-of-k crossovers, the Differences); its own card stays.
 */
async function checkShownApart(p: Page, judgement: RunJudgement): Promise<void> {
  const frame = webviewFrame(p, PANEL);
  assert.deepEqual(judgement.scope.apart, ['local-redis']);
  const notes = frame.locator('[data-note="apart"]');
  assert.equal(await notes.count(), 1, 'the apart line is shown once');
  assert.equal((await notes.innerText()).trim(), judgement.scope.apartLine);
  const text = await frame.locator('body').innerText();
  assert.equal(text.split('Shown apart:').length - 1, 1, 'said once in the whole panel');
  await frame.locator('#differences').waitFor({ state: 'attached', timeout: 30_000 });
  for (const section of ['#verdict .ranking-table', '#expected', '#projection', '#differences']) {
    const all = frame.locator(section);
    assert.ok((await all.count()) > 0, `${section} is in the panel`);
    for (const one of await all.all())
      assert.doesNotMatch(
        (await one.textContent()) ?? '',
        /local-redis/,
        `${section} leaves local-redis out`,
      );
  }
  assert.equal(await frame.locator('#cards .card[data-target="local-redis"]').count(), 1, 'its card stays');
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
    const unset = await checkVerdict(p, undefined, 'Unset');
    await shoot(p, 'panel-verdict-unset.png');
    await checkStatusAndRuns(p, unset, 'Unset');

    // Where the app runs, set: the panel redraws for it; every surface answers for it first.
    const settingsDir = path.join(session!.workspace, '.vscode');
    fs.mkdirSync(settingsDir, { recursive: true });
    fs.writeFileSync(
      path.join(settingsDir, 'settings.json'),
      JSON.stringify({ 'dbprobe.appRttMs': APP_RTT_MS }),
    );
    const atApp = await checkVerdict(p, APP_RTT_MS, 'App');
    await checkStatusAndRuns(p, atApp, 'App');
    await checkShownApart(p, atApp);
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
  'at 900x900 with a 270 px sidebar, the narrow panel keeps every figure whole with its kind',
  onFailureScreenshot(async () => {
    const p = page();
    await p.setViewportSize({ width: 900, height: 900 });
    await showDbProbeSidebar(p);
    figures.sidebarWidth = Math.round(await setSidebarWidth(p, SIDEBAR_PX));
    assert.ok(
      Math.abs(figures.sidebarWidth - SIDEBAR_PX) <= 2,
      `the sidebar is ${SIDEBAR_PX} px: ${figures.sidebarWidth}`,
    );
    const frame = webviewFrame(p, PANEL);
    const box = await panelBox(p);
    figures.narrowPanelWidth = Math.round(box.width);
    assert.ok(box.width < 340, `the panel is narrow: ${box.width} px`);
    // The table reflows: every figure in the panel, with its kind before it and its unit in it.
    await frame.locator('#verdict .ranking-table').first().scrollIntoViewIfNeeded();
    // The charts follow the panel's new width a frame or two after it changed.
    const sideways = await readUntil(
      () => sidewaysScrollers(frame),
      (found) => found.length === 0,
      10_000,
    );
    assert.deepEqual(sideways, [], 'nothing scrolls sideways in the narrow panel');
    assert.deepEqual(await cutFigures(frame), [], 'no figure is cut in the narrow panel');
    const whole = await everySection(frame);
    assert.deepEqual(whole.sideways, [], 'no section scrolls sideways in the narrow panel');
    assert.deepEqual(whole.cut, [], 'no figure of any section is cut in the narrow panel');
    await frame.locator('#verdict .ranking-table').first().scrollIntoViewIfNeeded();
    const cells = frame.locator('#verdict .ranking-table td');
    for (let i = 0; i < (await cells.count()); i++) {
      const cell = cells.nth(i);
      const label = await beforeContent(cell);
      assert.match(label, /^"(new connection|warm query|request of \d+ queries)/, 'the kind is shown');
      assert.match(await cell.innerText(), /\d ms/, 'the unit is shown');
      const own = await cell.boundingBox();
      assert.ok(own && own.x >= box.x - 1 && own.x + own.width <= box.x + box.width + 1, 'across the panel');
    }
    for (const head of await frame.locator('#cards .card th.kind').all())
      assert.ok(
        (await head.boundingBox())!.width > 20,
        `the card's kind is shown: ${await head.innerText()}`,
      );
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
    // Every fold opened, as a reader might: its tables too lay out as labelled figures.
    const folds = await frame.locator('body').evaluate((node) => {
      const all = (
        node as unknown as { querySelectorAll(s: string): Iterable<{ open: boolean }> }
      ).querySelectorAll('details');
      let opened = 0;
      for (const fold of all) {
        if (fold.open) continue;
        fold.open = true;
        opened += 1;
      }
      return opened;
    });
    figures.foldsOpened = folds;
    const unfolded = await everySection(frame);
    assert.deepEqual(unfolded.sideways, [], 'no opened fold scrolls sideways in the narrow panel');
    assert.deepEqual(unfolded.cut, [], 'no figure of an opened fold is cut in the narrow panel');
  }),
);

test(
  'in a 270 px sidebar the Runs row leads with the verdict, Targets name the kind at the app, and down is marked',
  onFailureScreenshot(async () => {
    const p = page();
    await showDbProbeSidebar(p);
    const sidebar = await p.locator('.part.sidebar').boundingBox();
    assert.ok(sidebar && Math.abs(sidebar.width - SIDEBAR_PX) <= 2, `the sidebar is ${SIDEBAR_PX} px`);
    const right = sidebar.x + sidebar.width;
    const result = savedResult();
    const judgement = judgeRun(result, { appRttMs: APP_RTT_MS });
    // The run's row: the answer's first words on screen, the winner first, the one-line form in its label.
    const [run] = await treeRows(p, 'Runs');
    assert.ok(run, 'a Runs row');
    figures.runsRowShownPx = Math.round(run.labelShownPx);
    assert.equal(run.label, judgement.short);
    assert.ok(run.labelShownPx >= 120, `the first words are on screen: ${run.labelShownPx} px of the label`);
    figures.runsRowShown = run.shownText;
    const ranking = judgement.rankings.find((r) => r.sentence === judgement.lines[0]);
    assert.ok(ranking && ranking.at === 'app', `the first line ranks at the app: ${judgement.lines[0]}`);
    const leader = ranking.groups[0]![0]!.target;
    assert.ok(
      judgement.short!.startsWith(run.shownText.trimEnd()) &&
        run.shownText.startsWith(`${leader} `) &&
        (ranking.groups.length === 1 || run.shownText.includes('fastest')),
      `the winner and that it is fastest are what shows: "${run.shownText}"`,
    );
    assert.ok(run.rightPx <= right + 1, 'the row stays inside the sidebar');

    // Each target's figure names its kind and where the app runs first, then here.
    const location = { kind: 'rtt' as const, rttMs: APP_RTT_MS };
    const targets = await readUntil(
      () => treeRows(p, 'Targets'),
      (rows) => rows.length === TARGETS.length && rows.every((r) => r.description.includes('from app')),
    );
    for (const name of TARGETS) {
      const row = targets.find((r) => r.label === name);
      assert.ok(row, `a Targets row for ${name}`);
      const m = result.measurements.find((x) => x.target === name && x.kind === 'subsequent')!;
      const parts = projectTarget(result.measurements, name);
      assert.ok(!('reason' in parts) && parts.subsequent, `${name} is projectable`);
      const { short } = targetFigure(
        {
          kind: 'subsequent',
          p50Us: m.stats.p50Us,
          projection: { localUs: parts.subsequent.localUs, turns: parts.subsequent.turns },
        },
        location,
      );
      assert.match(short, /^warm ≈ [\d.]+ ms from app · [\d.]+ ms here$/);
      assert.ok(row.description.startsWith(short), `${name}: "${row.description}" leads with "${short}"`);
      assert.ok(row.aria.includes(short), `${name}'s aria label reads the figure: ${row.aria}`);
      assert.ok(row.rightPx <= right + 1, `${name}'s row stays inside the sidebar`);
      // Beside the longest name the kind and the figure at the app are on screen, the number whole
      // (what follows it begins to show).
      assert.match(row.shownText, /warm ≈ \d+(\.\d+)? \S/, `${name}: what shows is "${row.shownText}"`);
    }
    figures.targetsRow = targets[0]?.description ?? '';

    // A heartbeat on a target whose port refuses: the Targets view marks it down, first.
    const config = JSON.parse(fs.readFileSync(path.join(session!.workspace, 'dbprobe.json'), 'utf8')) as {
      targets: object[];
    };
    config.targets.push({ name: DOWN_TARGET, driver: 'pg', connection: 'env:DBPROBE_VERDICT_DOWN_URL' });
    fs.writeFileSync(path.join(session!.workspace, 'dbprobe.json'), JSON.stringify(config, null, 2));
    await readUntil(
      () => treeRows(p, 'Targets'),
      (rows) => rows.some((r) => r.label === DOWN_TARGET),
    );
    await runCommand(p, 'DB Probe: Start Heartbeat');
    await waitForQuickInputTitle(p, 'DB Probe heartbeat: target');
    await pickInQuickInput(p, DOWN_TARGET);
    await p
      .locator('.statusbar-item[id$="dbprobe.heartbeat"]', { hasText: `${DOWN_TARGET} down` })
      .waitFor({ timeout: 60_000 });
    const rows = await readUntil(
      () => treeRows(p, 'Targets'),
      (all) => all.some((r) => r.label === DOWN_TARGET && r.description.startsWith('down (heartbeat)')),
    );
    const down = rows.find((r) => r.label === DOWN_TARGET)!;
    figures.downRow = `${down.label} ${down.description}`;
    assert.ok(down.description.startsWith('down (heartbeat)'), `marked down first: ${down.description}`);
    assert.ok(down.aria.includes('down (heartbeat)'), `its aria label says so: ${down.aria}`);
    const row = paneOf(p, 'Targets').locator('.monaco-list-row', { hasText: DOWN_TARGET });
    assert.equal(await row.locator('.codicon-error').count(), 1, 'with the error icon');
    assert.ok(
      rows.filter((r) => r.label !== DOWN_TARGET).every((r) => !r.description.includes('down')),
      'only that target is marked',
    );
    await runCommand(p, 'Notifications: Clear All Notifications');
    const file = path.join(RESULTS, 'sidebar-270.png');
    await p.screenshot({ path: file, clip: { x: 0, y: 0, width: Math.ceil(right) + 1, height: 900 } });
    if (process.env.DBPROBE_E2E_DOCS === '1')
      fs.copyFileSync(file, path.join(DOCS_IMAGES, 'sidebar-270.png'));
    await runCommand(p, 'DB Probe: Stop Heartbeat');
  }),
);
