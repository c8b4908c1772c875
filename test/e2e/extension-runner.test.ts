/**
 * End to end, runners from the editor: the packaged .vsix in code-server probes from this machine and from a
 * real runner process (`node dist/runner.js` on 127.0.0.1) at once. The runner is added through
 * "DB Probe: Add Runner" (a wrong token first: nothing is saved; then the right one, typed into the
 * password box). One target uses secret:NAME (the runner accepts client connections, so the editor
 * asks once and sends it), one env:VAR (both places read it from their own environment). The panel
 * must show both places with numeric p50s, the Markdown export both, and a runner killed mid-run
 * must leave the partial results and an error naming it. The token and the database password are
 * looked for everywhere: settings, saved runs, exports, logs, the panel's DOM.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { startRunnerProcess, type RunnerProcess } from '../helpers/runnerProcess';
import { assertNoSecret } from '../helpers/testbed';
import { openWorkbench, type Workbench } from './harness/browser';
import { startCodeServer, type CodeServer } from './harness/codeServer';
import {
  acceptFileDialog,
  answerDialog,
  answerInput,
  clickNotificationButton,
  closeAllEditors,
  notificationText,
  pickInQuickInput,
  probeWithDefaults,
  runCommand,
  toggleQuickPickRow,
  waitForNotification,
  waitForQuickInputTitle,
  webviewFrame,
} from './extensionPage';
import {
  EXTENSION_ID,
  RESULTS,
  ROOT,
  env,
  loadEnvironment,
  packageExtension,
  textFilesUnder,
  withFailureScreenshot,
} from './extensionSetup';
import { atPanelWidth, cutFigures, readTable, sidewaysScrollers } from './panelGeometry';

const PANEL = { extensionId: EXTENSION_ID };
const REGION = 'test-region-1';
const RUNNER_NAME = 'e2e-runner';
const TOKEN = `e2e-token-${randomBytes(16).toString('hex')}`;

let server: CodeServer;
let workbench: Workbench;
let runner: RunnerProcess;
let workspace: string;
let password: string;
const exports: string[] = [];
const panelTexts: string[] = [];
const started = Date.now();
const figures: Record<string, string | number> = {};
const onFailureScreenshot = withFailureScreenshot(
  () => workbench?.page,
  () => server?.userDataDir,
);

before(async () => {
  loadEnvironment();
  password = process.env.DBPROBE_TEST_PASSWORD ?? '';
  assert.ok(password.length >= 8, 'the testbed sets a generated password (DBPROBE_TEST_PASSWORD)');
  const vsix = packageExtension(figures);
  fs.mkdirSync(RESULTS, { recursive: true });
  // The runner: its own environment holds the env:VAR connections; it also accepts connection strings
  // from the editor for 127.0.0.1 (the opt-in), so the secret:NAME target can be sent with consent.
  runner = await startRunnerProcess({
    DBPROBE_TOKEN: TOKEN,
    DBPROBE_REGION: REGION,
    DBPROBE_TEST_REDIS_URL: env('DBPROBE_TEST_REDIS_URL'),
    DBPROBE_TEST_PG_URL: env('DBPROBE_TEST_PG_URL'),
    DBPROBE_ALLOW_CLIENT_CONNECTIONS: '1',
    DBPROBE_ALLOWED_HOSTS: '127.0.0.1',
    DBPROBE_MAX_ITERATIONS: '1000000',
  });
  const work = path.join(ROOT, 'test', 'e2e', '.work');
  fs.mkdirSync(work, { recursive: true });
  workspace = fs.mkdtempSync(path.join(work, 'runner-workspace-'));
  // A workspace target by env:VAR: the extension host (it inherits this process's environment) and the
  // runner each read DBPROBE_TEST_REDIS_URL from their own.
  writeConfig({});
  server = await startCodeServer({
    vsixPath: vsix,
    workspaceDir: workspace,
    userSettings: {
      'workbench.colorTheme': 'Default Dark Modern',
      'chat.disableAIFeatures': true,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      'dbprobe.iterations': 30,
      'dbprobe.warmup': 3,
    },
  });
  workbench = await openWorkbench(server.url);
  await workbench.page.waitForTimeout(2000);
});

after(async () => {
  await workbench?.close();
  if (server) {
    fs.writeFileSync(path.join(RESULTS, 'code-server-runner.log'), server.logs());
    await server.stop();
  }
  await runner?.stop();
  if (workspace && process.env.DBPROBE_E2E_KEEP !== '1')
    fs.rmSync(workspace, { recursive: true, force: true });
  figures.totalMs = Date.now() - started;
  console.log(`e2e runner figures: ${JSON.stringify(figures)}`);
});

test(
  'adds a connection whose secret stays in VS Code (secret:testbed-pg)',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    await runCommand(page, 'DB Probe: Add Connection');
    await waitForQuickInputTitle(page, 'Add connection (1/3)');
    await pickInQuickInput(page, 'pg');
    await waitForQuickInputTitle(page, 'Add connection (2/3)');
    await answerInput(page, 'testbed-pg');
    await waitForQuickInputTitle(page, 'Add connection (3/3)');
    await answerInput(page, env('DBPROBE_TEST_PG_URL'));
    await waitForNotification(page, `connection "testbed-pg" is in VS Code's secret storage`);
  }),
);

test(
  'Add Runner: a wrong token saves nothing; the right one, typed into the password box, is checked and saved',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    const settingsFile = path.join(server.userDataDir, 'User', 'settings.json');
    await runCommand(page, 'DB Probe: Add Runner');
    await waitForQuickInputTitle(page, 'Add runner (1/3)');
    await answerInput(page, RUNNER_NAME);
    await waitForQuickInputTitle(page, 'Add runner (2/3)');
    await answerInput(page, runner.url);
    await waitForQuickInputTitle(page, 'Add runner (3/3)');
    assert.equal(
      await page.locator('.quick-input-widget input[type="password"]').count(),
      1,
      'token box is masked',
    );
    await answerInput(page, 'not-the-token');
    await waitForNotification(page, 'refused the token (401)');
    assert.doesNotMatch(
      fs.readFileSync(settingsFile, 'utf8'),
      /dbprobe\.runners/,
      'a failed check saves nothing',
    );

    // "Try Again" asks again with the name and URL filled in.
    await clickNotificationButton(page, 'refused the token (401)', 'Try Again');
    await waitForQuickInputTitle(page, 'Add runner (1/3)');
    assert.equal(await page.locator('.quick-input-widget input').first().inputValue(), RUNNER_NAME);
    await page.keyboard.press('Enter');
    await waitForQuickInputTitle(page, 'Add runner (2/3)');
    assert.equal(await page.locator('.quick-input-widget input').first().inputValue(), runner.url);
    await page.keyboard.press('Enter');
    await waitForQuickInputTitle(page, 'Add runner (3/3)');
    await answerInput(page, TOKEN);
    // The token box closes on Enter; then the check runs (its own bound is 10 s), the runner is saved
    // (secret storage, then the user settings) and the extension says what answered. One CI run saw
    // no toast within 30 s of the box closing, though the runner was saved: wait for the settings to
    // hold it, then read the message where it is, the toast or the notification center.
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'Add runner (3/3)' })
      .waitFor({ state: 'hidden', timeout: 10_000 });
    const checkStarted = Date.now();
    const saved = () => fs.readFileSync(settingsFile, 'utf8').includes(`"name": "${RUNNER_NAME}"`);
    for (let i = 0; i < 600 && !saved(); i++) await page.waitForTimeout(100);
    figures.addRunnerSavedMs = Date.now() - checkStarted;
    assert.ok(
      saved(),
      `runner "${RUNNER_NAME}" not in the user settings ${figures.addRunnerSavedMs} ms after the token box closed`,
    );
    const text = await notificationText(page, `runner "${RUNNER_NAME}" answers`);
    figures.addRunnerToldMs = Date.now() - checkStarted;
    assert.match(text, new RegExp(`region ${REGION}`));
    assert.match(text, /node v\d+/);
    assert.match(text, /pg, .*ioredis/);
    assert.match(text, /connection strings from the editor: accepted/);
    await page.screenshot({ path: path.join(RESULTS, 'runner-added.png') });

    const settings = fs.readFileSync(settingsFile, 'utf8');
    assert.match(settings, new RegExp(`"name": "${RUNNER_NAME}"`));
    assert.ok(settings.includes(`"url": "${runner.url}"`), 'the URL is in the user settings');
    assertNoSecret([settings], TOKEN);
    assertNoSecret([settings], password);
  }),
);

test(
  'probes from this machine and the runner at once; the panel shows both places side by side',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    await closeAllEditors(page);
    await startProbe(true);
    const frame = webviewFrame(page, PANEL);
    const probeStart = Date.now();
    const lastRow = frame.locator('#across-table tr[data-target="testbed-redis"][data-kind="subsequent"]');
    await lastRow.waitFor({ timeout: 90_000 });
    figures.probeMs = Date.now() - probeStart;
    const heads = await frame.locator('#across-table th.place-head').allInnerTexts();
    assert.match(heads[0] ?? '', /^from this machine/);
    assert.match(heads[1] ?? '', new RegExp(`^from ${REGION}`));
    assert.match(heads[1] ?? '', new RegExp(`runner "${RUNNER_NAME}"`));
    const p50s: string[] = [];
    for (const target of ['testbed-pg', 'testbed-redis']) {
      for (const kind of ['initial', 'subsequent']) {
        for (const place of [0, 1]) {
          const cell = frame.locator(
            `#across-table tr[data-target="${target}"][data-kind="${kind}"] td[data-place="${place}"][data-stat="p50"]`,
          );
          const value = ((await cell.textContent()) ?? '').trim();
          assert.ok(
            Number(value) > 0,
            `${target} ${kind} p50 from place ${place} is a number of ms: "${value}"`,
          );
          p50s.push(`${target}/${kind}@${place === 0 ? 'local' : REGION}=${value}ms`);
        }
      }
    }
    figures.p50 = p50s.join(' ');
    assert.equal(await frame.locator('.banner.error').count(), 0, 'no place failed');
    await frame.locator('canvas[data-chart="places"]').waitFor();
    // Its label and text alternative come from its one definition (webview/chartDefinitions.ts).
    const places = frame.locator('canvas[data-chart="places"]');
    assert.equal(
      await places.getAttribute('aria-label'),
      'Bar chart of p50 and p95 per target and kind, one colour per place',
    );
    assert.equal(await places.getAttribute('aria-describedby'), 'across-table');
    await frame.locator('#across-table').waitFor({ state: 'attached' });
    // Each place in full: this machine's details first, then the runner's.
    await frame.locator('#place-detail #stats-table').waitFor();
    assert.match(
      (await frame.locator('#place-detail').textContent()) ?? '',
      /this machine \(VS Code, probe thread\)/,
    );
    await frame.locator('.place-tabs button[data-place="1"]').click();
    await frame.locator('#place-detail', { hasText: `runner ${REGION}` }).waitFor({ timeout: 10_000 });
    await frame.locator('#place-detail canvas[data-chart="percentiles"]').waitFor();
    await page.screenshot({ path: path.join(RESULTS, 'panel-places.png') });
    await frame.locator('#places').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(RESULTS, 'panel-places-detail.png') });
    panelTexts.push(await frame.locator('html').innerHTML());
    // The place tabs are one tab stop; arrow keys move between them (WAI-ARIA tabs).
    await page.keyboard.press('ArrowLeft');
    await frame.locator('.place-tabs button[data-place="0"][aria-selected="true"][tabindex="0"]').waitFor();
    await frame
      .locator('#place-detail', { hasText: 'this machine (VS Code, probe thread)' })
      .waitFor({ timeout: 10_000 });

    const runs = page.locator('.pane', { hasText: 'Runs' });
    await page.locator('.activitybar .action-item a[aria-label^="DB Probe"]').click();
    await runs
      .locator('.monaco-list-row', { hasText: `this machine vs ${REGION}` })
      .first()
      .waitFor({ timeout: 15_000 });
  }),
);

test(
  'at ~290 px (the sidebar open beside a split editor) the places table reads figure by figure, nothing sideways',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    const frame = webviewFrame(page, PANEL);
    const panel = page.locator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`);
    await atPanelWidth(page, panel, 290, async (width) => {
      figures.narrowPlacesPx = width;
      await frame.locator('#across').scrollIntoViewIfNeeded();
      const places = await frame
        .locator('#across-table th.place-head')
        .evaluateAll((heads) => heads.map((th) => th.getAttribute('data-label') ?? ''));
      assert.deepEqual(places, ['from this machine', `from ${REGION}`]);
      const read = await readTable(frame, '#across-table');
      figures.narrowPlaces = `${read.scrollWidth}/${read.clientWidth} in ${read.panelWidth}`;
      assert.ok(read.scrollWidth <= read.clientWidth, `no sideways scroll: ${figures.narrowPlaces}`);
      const figuresRead = read.cells.filter((c) => c.data.stat !== undefined);
      assert.equal(figuresRead.length, 2 * 2 * 2 * 3, 'every figure of 2 targets x 2 kinds x 2 places');
      for (const cell of figuresRead) {
        const place: string | undefined = places[Number(cell.data.place)];
        // Both head rows name the figure, its unit follows it, and it lies whole inside the panel.
        assert.equal(cell.before, `"${place} · ${cell.data.stat} "`, `the label: ${JSON.stringify(cell)}`);
        assert.match(cell.text, /^\d+\.\d{3}$/, `the figure: ${JSON.stringify(cell)}`);
        assert.match(cell.after, /^"\sms"$/, `the unit: ${JSON.stringify(cell)}`);
        assert.ok(
          cell.left >= 0 && cell.right <= read.panelWidth + 1,
          `inside the panel: ${JSON.stringify(cell)}`,
        );
      }
      // Each row's kind is read with it.
      for (const kind of read.cells.filter(
        (c) => c.data.stat === undefined && /^(initial|subsequent)$/.test(c.text),
      ))
        assert.equal(kind.before, '"kind "');
      assert.deepEqual(await sidewaysScrollers(frame), [], 'nothing in the panel scrolls sideways');
      assert.deepEqual(await cutFigures(frame), [], 'no figure is cut');
      await frame.locator('#across-table').scrollIntoViewIfNeeded();
      const shot = path.join(RESULTS, 'panel-places-narrow.png');
      const box = await panel.boundingBox();
      await page.screenshot({ path: shot, ...(box ? { clip: box } : {}) });
    });
  }),
);

test(
  'the Markdown export holds both places side by side, each in full with its charts',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    await runCommand(page, 'DB Probe: Export Run as Markdown');
    await waitForQuickInputTitle(page, 'Export DB Probe run as Markdown');
    const chosen = await acceptFileDialog(page);
    assert.ok(chosen.startsWith(workspace) && chosen.endsWith('.md'), `default export path: ${chosen}`);
    await waitForNotification(page, `exported to ${path.basename(chosen)}`);
    const markdown = fs.readFileSync(chosen, 'utf8');
    exports.push(markdown);
    assert.match(
      markdown,
      new RegExp(`^# Database latency from this machine \\(VS Code, probe thread\\), runner ${REGION}`),
    );
    assert.match(
      markdown,
      new RegExp(`\\| Target \\| Kind \\| this machine \\(VS Code, probe thread\\) \\| runner ${REGION} \\|`),
    );
    for (const target of ['testbed-pg', 'testbed-redis'])
      assert.match(
        markdown,
        // p50 / p95 / p99 per place; a p99 of fewer than 100 samples is the footnoted dash.
        new RegExp(`\\| ${target} \\| initial \\| [\\d.]+ / [\\d.]+ / ([\\d.]+|-†) \\| [\\d.]+ / `),
      );
    assert.match(markdown, /^# From this machine \(VS Code, probe thread\)$/m);
    assert.match(markdown, new RegExp(`^# From runner ${REGION}$`, 'm'));
    assert.equal(markdown.match(/```mermaid\nxychart-beta/g)?.length, 4, 'two kinds x two places');
    fs.copyFileSync(chosen, path.join(RESULTS, 'export-places.md'));
  }),
);

test(
  'a runner killed mid-run leaves the partial results and an error naming it',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    await closeAllEditors(page);
    writeConfig({ iterations: 100000, warmup: 0 });
    await page.waitForTimeout(1000);
    // The places picked last time (both) are ticked again; the question about sending comes again.
    await startProbe(false);
    const toast = page
      .locator('.notification-toast', { hasText: 'DB Probe' })
      .filter({ hasText: `${REGION} ` });
    await toast.waitFor({ timeout: 30_000 });
    // The run's panel is open already: a progress table per place, each counting its samples.
    const frame = webviewFrame(page, PANEL);
    const runnerProgress = frame.locator('.progress-table[data-place="1"]');
    await frame.locator('.progress-table[data-place="0"] caption', { hasText: 'this machine' }).waitFor();
    await runnerProgress.locator('caption', { hasText: REGION }).waitFor();
    await page.waitForTimeout(2500);
    await runner.stop('SIGKILL');
    const killedAt = Date.now();
    // The panel says the runner's place failed while this machine goes on.
    await runnerProgress.locator('caption', { hasText: /: failed$/ }).waitFor({ timeout: 20_000 });
    // This machine would go on for minutes: cancel it, as a user would (in the notification; the
    // panel's Cancel is pressed in extension-responsive); the panel then shows the results.
    await page.waitForTimeout(1000);
    await toast.hover();
    await toast.locator('.monaco-button', { hasText: 'Cancel' }).click();
    const banner = frame.locator('.banner.error[data-place="1"]');
    await banner.waitFor({ timeout: 20_000 });
    figures.killToPanelMs = Date.now() - killedAt;
    const message = await banner.innerText();
    assert.match(message, new RegExp(`runner "${RUNNER_NAME}" \\(${REGION}\\)`));
    assert.match(message, /broke before the run finished/);
    assert.match(message, /hold what arrived/);
    const partial = frame.locator(
      '#across-table tr[data-target="testbed-pg"][data-kind="initial"] td[data-place="1"][data-stat="p50"]',
    );
    assert.ok(
      Number(((await partial.textContent()) ?? '').trim()) > 0,
      "the runner's samples before the kill are kept",
    );
    await frame.locator('.banner[data-place="0"][data-state="cancelled"]').waitFor();
    await waitForNotification(page, `runner "${RUNNER_NAME}" (${REGION})`);
    await page.screenshot({ path: path.join(RESULTS, 'panel-runner-killed.png') });
    panelTexts.push(await frame.locator('html').innerHTML());
  }),
);

test(
  'no token and no password in settings, saved runs, exports, logs or the panel',
  onFailureScreenshot(async () => {
    const texts = [
      ...textFilesUnder(server.userDataDir),
      ...textFilesUnder(workspace),
      ...exports,
      ...panelTexts,
    ];
    assert.ok(
      texts.some((t) => t.includes('"schema":"dbprobe.run/v1"')),
      'saved runs were scanned',
    );
    assert.ok(
      texts.some((t) => t.includes('"schema":"dbprobe.runGroup/v1"')),
      'saved run groups were scanned',
    );
    const log = findFile(path.join(server.userDataDir, 'logs'), 'DB Probe.log');
    assert.ok(log && fs.readFileSync(log, 'utf8').includes('run group'), "the extension's log was scanned");
    assertNoSecret(texts, TOKEN);
    assertNoSecret(texts, password);
  }),
);

/** Palette -> targets (all) -> kinds -> places (ticking the runner the first time) -> send consent. */
async function startProbe(tickRunner: boolean): Promise<void> {
  const { page } = workbench;
  await probeWithDefaults(page);
  await waitForQuickInputTitle(page, 'where to run');
  if (tickRunner) await toggleQuickPickRow(page, RUNNER_NAME);
  await page.keyboard.press('Enter');
  // testbed-pg is secret:NAME: the runner cannot read it, but accepts connection strings.
  await answerDialog(page, 'Send connection strings to runners', 'Send for This Run');
}

function writeConfig(extra: Record<string, unknown>): void {
  fs.writeFileSync(
    path.join(workspace, 'dbprobe.json'),
    JSON.stringify({
      targets: [{ name: 'testbed-redis', driver: 'ioredis', connection: 'env:DBPROBE_TEST_REDIS_URL' }],
      ...extra,
    }),
  );
}

function findFile(dir: string, name: string): string | undefined {
  if (!fs.existsSync(dir)) return undefined;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = findFile(file, name);
      if (found) return found;
    } else if (entry.name === name) return file;
  }
  return undefined;
}
