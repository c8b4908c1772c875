/**
 * End to end: cold starts and TLS trust in the editor, against the testbed's real servers.
 * - Add Connection with the TLS testbed's PostgreSQL (sslmode=verify-full): the TLS step trusts a CA
 *   file picked in the file dialog, a second connection turns verification off after the warning;
 *   both probe, and the panel marks the insecure one.
 * - The cold kind through the Neon API stand-in and the pgcold service: the API key set with
 *   "DB Probe: Set Neon API Key" (secret storage), the project id asked once, the endpoint from the
 *   target; the fixture sees the suspends with the right Bearer key and the compute starts again
 *   for each sample; the panel's cold table shows cold above hot.
 * - A suspend command is shown (the exact command) and runs only after the confirmation: refused
 *   once (nothing runs), then confirmed (it runs before each sample).
 * - Progress shows an idle wait with its time, and Cancel ends the run during the wait.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { openWorkbench, type Workbench } from './harness/browser';
import { startCodeServer, type CodeServer } from './harness/codeServer';
import { assertNoSecret } from '../helpers/testbed';
import {
  answerDialog,
  answerInput,
  closeAllEditors,
  pickInQuickInput,
  runCommand,
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

const PANEL = { extensionId: EXTENSION_ID };
const QUICK_INPUT = '.quick-input-widget';
const COLD_SAMPLES = 2;

let server: CodeServer;
let workbench: Workbench;
let workspace: string;
let marker: string;
let suspendCommand: string[];
const figures: Record<string, string | number> = {};
const onFailureScreenshot = withFailureScreenshot(
  () => workbench?.page,
  () => server?.userDataDir,
);

/** The pgcold service and the TLS files, which loadEnvironment() does not start. */
function loadColdEnvironment(): void {
  if (process.env.DBPROBE_TEST_PG_COLD_URL && process.env.DBPROBE_TEST_PG_TLS_URL) return;
  const out = execFileSync('bash', ['-c', 'eval "$(bash scripts/testbed/up.sh pg pgcold)" && env -0'], {
    cwd: ROOT,
    maxBuffer: 16 << 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for (const pair of out.toString().split('\0')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.startsWith('DBPROBE_')) process.env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
}

const apiOrigin = () => new URL(env('DBPROBE_TEST_NEON_API_URL')).origin;

async function fixture(method: string, what: string): Promise<unknown> {
  const response = await fetch(`${apiOrigin()}/_fixture/${what}`, {
    method,
    headers: { Authorization: `Bearer ${env('DBPROBE_TEST_NEON_API_KEY')}` },
  });
  assert.equal(response.status, 200, `fixture ${method} ${what}`);
  return response.json();
}

/** pg_ctl of the cluster the pgcold service runs (Debian's, whichever major version is installed). */
function pgCtl(): string {
  const versions = fs.readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v));
  const bin = versions.map((v) => `/usr/lib/postgresql/${v}/bin/pg_ctl`).find((f) => fs.existsSync(f));
  assert.ok(bin, 'pg_ctl of the testbed PostgreSQL');
  return bin;
}

before(async () => {
  loadEnvironment();
  loadColdEnvironment();
  const vsix = packageExtension(figures);
  fs.mkdirSync(RESULTS, { recursive: true });
  const work = path.join(ROOT, 'test', 'e2e', '.work');
  fs.mkdirSync(work, { recursive: true });
  workspace = fs.mkdtempSync(path.join(work, 'cold-'));
  marker = path.join(workspace, '..', `${path.basename(workspace)}-suspended.txt`);
  // The command a user would write for a self-hosted database: stop it (the pgcold front starts it
  // again on the next connection), leaving a line in a file so the test sees each run.
  suspendCommand = [
    'sh',
    '-c',
    `echo suspended >> '${marker}' && runuser -u postgres -- ${pgCtl()} -D '${env('DBPROBE_TEST_PG_COLD_DATA_DIR')}' -m fast -w -t 60 stop`,
  ];
  // Read by the extension host: connection strings stay out of every file.
  process.env.DBPROBE_COLD_PG_URL = env('DBPROBE_TEST_PG_COLD_URL');
  delete process.env.NEON_API_KEY;
  fs.writeFileSync(
    path.join(workspace, 'dbprobe.json'),
    JSON.stringify(
      {
        iterations: 3,
        warmup: 0,
        cold: { samples: COLD_SAMPLES, pauseMs: 0, suspendTimeoutMs: 60_000 },
        targets: [
          {
            name: 'pg-neon',
            driver: 'pg',
            connection: 'env:DBPROBE_COLD_PG_URL',
            cold: {
              mode: 'neon-api',
              neon: {
                endpointId: env('DBPROBE_TEST_NEON_ENDPOINT_ID'),
                apiUrl: env('DBPROBE_TEST_NEON_API_URL'),
              },
            },
          },
          {
            name: 'pg-command',
            driver: 'pg',
            connection: 'env:DBPROBE_COLD_PG_URL',
            cold: { mode: 'command', command: suspendCommand },
          },
          {
            name: 'pg-idle',
            driver: 'pg',
            connection: 'env:DBPROBE_COLD_PG_URL',
            cold: { mode: 'idle-wait', idleMs: 600_000 },
          },
        ],
      },
      null,
      2,
    ),
  );
  server = await startCodeServer({
    vsixPath: vsix,
    workspaceDir: workspace,
    userSettings: {
      'workbench.colorTheme': 'Default Light Modern',
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
    },
  });
  workbench = await openWorkbench(server.url);
});

after(async () => {
  await workbench?.close();
  if (server) {
    fs.writeFileSync(path.join(RESULTS, 'code-server-cold.log'), server.logs());
    await server.stop();
  }
  if (workspace && process.env.DBPROBE_E2E_KEEP !== '1') {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(marker, { force: true });
  }
  console.log(`e2e cold figures: ${JSON.stringify(figures)}`);
});

/** The row of a quick pick whose label is exactly `label`. */
function quickPickRow(page: Page, label: string) {
  return page
    .locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`)
    .filter({
      has: page.locator('.label-name', {
        hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
      }),
    })
    .first();
}

/** In the open multi-select quick pick, ticks exactly the rows named (a click toggles a row). */
async function pickExactly(page: Page, labels: string[], all: string[]): Promise<void> {
  for (const label of all) {
    const row = quickPickRow(page, label);
    await row.waitFor({ timeout: 10_000 });
    const checked = (await row.getAttribute('aria-checked')) === 'true';
    if (checked !== labels.includes(label)) await row.click();
  }
  for (const label of all)
    assert.equal(
      (await quickPickRow(page, label).getAttribute('aria-checked')) === 'true',
      labels.includes(label),
      `quick pick row ${label}`,
    );
  await page.keyboard.press('Enter');
}

const TARGETS = ['pg-neon', 'pg-command', 'pg-idle', 'tls-ca', 'tls-insecure', 'tls-system'];

async function probe(page: Page, targets: string[], kinds: string[]): Promise<void> {
  await closeAllEditors(page);
  await runCommand(page, 'Probe database latency');
  await waitForQuickInputTitle(page, 'targets');
  const shown = await page
    .locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row .label-name`)
    .allInnerTexts();
  await pickExactly(
    page,
    targets,
    TARGETS.filter((t) => shown.includes(t)),
  );
  await waitForQuickInputTitle(page, 'probe kinds');
  await pickExactly(page, kinds, ['initial', 'subsequent', 'cold']);
}

/**
 * Types a path into code-server's simple file dialog (a quick input) and accepts it. The dialog fills
 * in its default folder a moment after it opens, over anything typed before: wait for that first.
 */
async function chooseFile(page: Page, file: string): Promise<void> {
  const input = page.locator(`${QUICK_INPUT} input`).first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !(await input.inputValue()).endsWith('/')) await page.waitForTimeout(100);
  for (let attempt = 0; attempt < 5; attempt++) {
    await input.fill(file);
    await page.waitForTimeout(400);
    if ((await input.inputValue()) === file) break;
  }
  assert.equal(await input.inputValue(), file, 'the file dialog holds the CA path');
  await page.keyboard.press('Enter');
}

async function addTlsConnection(
  page: Page,
  name: string,
  trust: 'ca' | 'insecure' | 'system',
): Promise<void> {
  await runCommand(page, 'DB Probe: Add Connection');
  await waitForQuickInputTitle(page, 'Add connection (1/3)');
  await pickInQuickInput(page, 'pg');
  await waitForQuickInputTitle(page, 'Add connection (2/3)');
  await answerInput(page, name);
  await waitForQuickInputTitle(page, 'Add connection (3/3)');
  await answerInput(page, env('DBPROBE_TEST_PG_TLS_URL'));
  await waitForQuickInputTitle(page, 'Add connection: TLS trust');
  if (trust === 'ca') {
    await quickPickRow(page, 'Trust a CA file…').click();
    await waitForQuickInputTitle(page, `CA certificates to trust for "${name}"`);
    await chooseFile(page, env('DBPROBE_TEST_CA_FILE'));
  } else if (trust === 'system') {
    await quickPickRow(page, 'Trust the system certificate store').click();
  } else {
    await quickPickRow(page, 'Do not verify the certificate (insecure)').click();
    await answerDialog(page, `Turn off certificate verification for "${name}"?`, 'Turn Off Verification');
  }
  await waitForNotification(page, `connection "${name}" is in VS Code's secret storage`);
}

test(
  'Add Connection over TLS: a CA file from the file dialog, or no verification after a warning; the system store alone fails as tls and names tls.caFile',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    await addTlsConnection(page, 'tls-ca', 'ca');
    await addTlsConnection(page, 'tls-insecure', 'insecure');
    // The testbed's CA is in no system store: this one must fail, and say what to do.
    await addTlsConnection(page, 'tls-system', 'system');
    const settingsFile = path.join(server.userDataDir, 'User', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as {
      'dbprobe.targets': { name: string; tls?: unknown }[];
    };
    const tlsOf = (name: string) => settings['dbprobe.targets'].find((t) => t.name === name)?.tls;
    assert.deepEqual(tlsOf('tls-ca'), { caFile: env('DBPROBE_TEST_CA_FILE') });
    assert.deepEqual(tlsOf('tls-insecure'), { insecure: true });
    assertNoSecret([fs.readFileSync(settingsFile, 'utf8')], env('DBPROBE_TEST_PASSWORD'));

    await probe(page, ['tls-ca', 'tls-insecure', 'tls-system'], ['initial']);
    const frame = webviewFrame(page, PANEL);
    for (const name of ['tls-ca', 'tls-insecure']) {
      const n = frame.locator(`#stats-table tr[data-target="${name}"][data-kind="initial"] td:nth-child(3)`);
      await n.waitFor({ timeout: 60_000 });
      // textContent: the panel skips rendering sections below the fold (content-visibility: auto),
      // and innerText reads a skipped section as empty; the DOM holds the figure all the same.
      assert.equal(
        (await n.textContent())?.trim(),
        '3',
        `${name}: every sample connected over verify-full TLS`,
      );
    }
    const refused = frame.locator('#errors-table tr', { hasText: 'tls-system' }).first();
    await refused.waitFor({ timeout: 10_000 });
    assert.equal(await refused.getAttribute('data-error-class'), 'tls');
    const hint = (await refused.locator('td').nth(5).textContent()) ?? '';
    assert.match(hint, /tls\.caFile/, `the panel's hint for a certificate from an unknown CA: ${hint}`);
    assert.match(hint, /NODE_EXTRA_CA_CERTS/);
    const banner = frame.locator('[data-banner="tls-insecure"]');
    assert.match(
      await banner.innerText(),
      /TLS not verified for tls-insecure: the target sets tls\.insecure/,
    );
    assert.equal(
      await frame.locator('article.card[data-target="tls-insecure"] [data-tls="insecure"]').count(),
      1,
    );
    assert.equal(await frame.locator('article.card[data-target="tls-ca"] [data-tls="insecure"]').count(), 0);
    await page.screenshot({ path: path.join(RESULTS, 'cold-tls-panel.png') });
  }),
);

test(
  'cold through the Neon API: key from secret storage, project asked once, cold above hot in the panel',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    const key = env('DBPROBE_TEST_NEON_API_KEY');
    await runCommand(page, 'DB Probe: Set Neon API Key');
    await waitForQuickInputTitle(page, 'Neon API key');
    assert.equal(await page.locator(`${QUICK_INPUT} input[type="password"]`).count(), 1, 'the key is masked');
    await answerInput(page, key);
    await waitForNotification(page, "the Neon API key is in VS Code's secret storage");

    await fixture('DELETE', 'requests');
    const before = (await fixture('GET', 'compute')) as { starts: number };
    await probe(page, ['pg-neon'], ['cold']);
    await waitForQuickInputTitle(page, 'Cold probe: Neon project of "pg-neon"');
    await answerInput(page, env('DBPROBE_TEST_NEON_PROJECT_ID'));
    const started = Date.now();
    const frame = webviewFrame(page, PANEL);
    const row = frame.locator('#cold-table tr[data-target="pg-neon"]');
    await row.waitFor({ timeout: 120_000 });
    figures.neonColdRunMs = Date.now() - started;
    const cell = async (col: string) => Number(await row.locator(`td[data-col="${col}"]`).textContent());
    assert.equal(await row.getAttribute('data-mode'), 'neon-api');
    assert.equal(await cell('n'), COLD_SAMPLES);
    const cold = await cell('cold');
    const hot = await cell('hot');
    figures.coldP50Ms = cold;
    figures.hotP50Ms = hot;
    assert.ok(cold > hot, `cold p50 ${cold} ms above hot p50 ${hot} ms`);
    assert.ok((await cell('cold-start')) > 0);

    const requests = (
      (await fixture('GET', 'requests')) as {
        requests: { method: string; path: string; authorization: string }[];
      }
    ).requests;
    const suspends = requests.filter((r) => r.method === 'POST' && r.path.endsWith('/suspend'));
    assert.equal(suspends.length, COLD_SAMPLES, 'one suspend per cold sample');
    assert.ok(
      suspends[0]!.path.includes(`/projects/${env('DBPROBE_TEST_NEON_PROJECT_ID')}/endpoints/`),
      'the project id answered is used',
    );
    assert.ok(
      requests.every((r) => r.authorization === 'ok'),
      'every request carried the stored key',
    );
    const afterRun = (await fixture('GET', 'compute')) as { starts: number };
    assert.equal(afterRun.starts - before.starts, COLD_SAMPLES, 'the compute was woken for each cold sample');
    await page.screenshot({ path: path.join(RESULTS, 'cold-neon-panel.png') });

    // The project id is remembered: a second run asks nothing and runs at once.
    await probe(page, ['pg-neon'], ['cold']);
    await frame.locator('#cold-table tr[data-target="pg-neon"]').waitFor({ timeout: 120_000 });
    assert.equal(
      await page.locator(`${QUICK_INPUT} .quick-input-title`, { hasText: 'Neon project' }).count(),
      0,
    );
  }),
);

test(
  'a suspend command is shown and runs only after the confirmation',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    fs.rmSync(marker, { force: true });
    const shown = suspendCommand[2]!;
    await probe(page, ['pg-command'], ['cold']);
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'runs a command on this machine' });
    await dialog.waitFor({ timeout: 15_000 });
    assert.ok((await dialog.innerText()).includes(shown.slice(0, 60)), 'the dialog shows the exact command');
    await page.screenshot({ path: path.join(RESULTS, 'cold-command-confirm.png') });
    await answerDialog(page, 'runs a command on this machine', 'Cancel');
    await page.waitForTimeout(1500);
    assert.equal(fs.existsSync(marker), false, 'refused: the command never ran');

    await probe(page, ['pg-command'], ['cold']);
    await answerDialog(page, 'runs a command on this machine', 'Run It Before Each Cold Sample');
    const frame = webviewFrame(page, PANEL);
    const row = frame.locator('#cold-table tr[data-target="pg-command"]');
    await row.waitFor({ timeout: 120_000 });
    assert.equal(await row.getAttribute('data-mode'), 'command');
    assert.equal(Number(await row.locator('td[data-col="n"]').textContent()), COLD_SAMPLES);
    const runs = fs.readFileSync(marker, 'utf8').trim().split('\n');
    assert.equal(runs.length, COLD_SAMPLES, 'the command ran before each cold sample');
  }),
);

test(
  'progress shows the idle wait, and Cancel ends the run during it',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    await probe(page, ['pg-idle'], ['cold']);
    const toast = page.locator('.notification-toast', { hasText: 'DB Probe' }).filter({
      hasText: /pg-idle cold: waiting 600 s of idle time so the database sleeps \(\d+ s of 600 s\)/,
    });
    await toast.waitFor({ timeout: 30_000 });
    await page.waitForTimeout(2500);
    figures.idleWaitText = await toast.innerText();
    assert.match(figures.idleWaitText, /\([1-9]\d* s of 600 s\)/, 'the waited time moves');
    const cancelAt = Date.now();
    await toast.hover();
    await toast.locator('.monaco-button', { hasText: 'Cancel' }).click();
    const frame = webviewFrame(page, PANEL);
    await frame.locator('.banner[data-state="cancelled"]').waitFor({ timeout: 15_000 });
    figures.cancelDuringWaitMs = Date.now() - cancelAt;
    assert.ok(figures.cancelDuringWaitMs < 10_000, `cancelled in ${figures.cancelDuringWaitMs} ms`);
  }),
);

test(
  'no Neon key or password in settings, saved runs or logs',
  onFailureScreenshot(async () => {
    const texts = [
      ...textFilesUnder(server.userDataDir, /\.(json|md|csv|log)$/),
      ...textFilesUnder(workspace, /\.(json|md|csv)$/),
    ];
    assert.ok(
      texts.some((t) => t.includes('"schema":"dbprobe.run/v1"')),
      'saved runs were scanned',
    );
    assertNoSecret(texts, env('DBPROBE_TEST_NEON_API_KEY'));
    assertNoSecret(texts, env('DBPROBE_TEST_PASSWORD'));
  }),
);
