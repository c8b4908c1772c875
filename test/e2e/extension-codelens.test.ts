/**
 * End to end: "Probe this query" where the query is written. A .ts file holds a sql`...` read (one
 * parameter) and a db.query('INSERT ...') write; two workspace targets on the testbed: PostgreSQL
 * (no allowWrites) and an embedded libSQL file (allowWrites: true). The CodeLens over the read runs
 * it on both, the panel's workload column shows the statement and the lens then states the saved
 * run's judgement (its warm-query ranking, as judgeRun words it).
 * The write asks for confirmation naming libSQL only, is refused on PostgreSQL, and its rows land in
 * the libSQL file and not in PostgreSQL. In a file that imports pg, a PostgreSQL-only statement is
 * offered to PostgreSQL only, and a query that fails on libSQL is that query's failure: its lens says
 * why, and the sidebar and status bar do not call the target failed.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { createClient } from '@libsql/client';
import { Client } from 'pg';
import { openWorkbench, type Workbench } from './harness/browser';
import { startCodeServer, type CodeServer } from './harness/codeServer';
import { assertNoSecret } from '../helpers/testbed';
import { lensVerdict } from '../../src/extension/queries/lensText';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import type { RunResult } from '../../src/shared/result';
import {
  answerInput,
  closeAllEditors,
  goToFile,
  pickInQuickInput,
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
import { ANSWER_LINE } from './splitLens';

const PANEL = { extensionId: EXTENSION_ID };
const ITERATIONS = 10;
const HEARTBEAT_SECONDS = 5;
const WARMUP = 1;
/** Where the app runs, as set: the lens answers for the query from there. */
const APP_RTT_MS = 30;
const READ = 'SELECT name FROM lens_items WHERE id = 1';
const WRITE = "INSERT INTO lens_items (id, name) VALUES (2, 'from the lens')";
const SOURCE = [
  "import { db, sql } from './db';",
  '',
  'export async function itemName(id: number) {',
  '  return sql`SELECT name FROM lens_items WHERE id = ${id}`;',
  '}',
  '',
  'export async function addItem() {',
  `  await db.query("${WRITE}");`,
  '}',
  '',
].join('\n');

const PG_ONLY = 'SELECT count(*) FROM pg_class';
/** No dialect mark, so offered everywhere; SQLite has no now(), so it fails on libSQL. */
const NOW = 'SELECT now()';
const CHECKS = [
  "import pg from 'pg';",
  '',
  'export async function tableCount(client: pg.Client) {',
  `  return client.query('${PG_ONLY}');`,
  '}',
  '',
  'export async function clock(client: pg.Client) {',
  `  return client.query('${NOW}');`,
  '}',
  '',
].join('\n');

let server: CodeServer;
let workbench: Workbench;
let workspace: string;
let libsqlUrl: string;
const figures: Record<string, string | number> = {};
const onFailureScreenshot = withFailureScreenshot(
  () => workbench?.page,
  () => server?.userDataDir,
);

before(async () => {
  loadEnvironment();
  const vsix = packageExtension(figures);
  fs.mkdirSync(RESULTS, { recursive: true });
  const work = path.join(ROOT, 'test', 'e2e', '.work');
  fs.mkdirSync(work, { recursive: true });
  workspace = fs.mkdtempSync(path.join(work, 'codelens-'));
  // The libSQL file lives outside the workspace: the extension host reads its URL from the environment.
  libsqlUrl = `file:${path.join(workspace, '..', `${path.basename(workspace)}.db`)}`;
  process.env.DBPROBE_LENS_LIBSQL_URL = libsqlUrl;
  process.env.DBPROBE_LENS_PG_URL = env('DBPROBE_TEST_PG_URL');
  await resetTables();
  fs.writeFileSync(path.join(workspace, 'queries.ts'), SOURCE);
  fs.writeFileSync(path.join(workspace, 'checks.ts'), CHECKS);
  fs.writeFileSync(
    path.join(workspace, 'dbprobe.json'),
    JSON.stringify({
      targets: [
        { name: 'testbed-pg', driver: 'pg', connection: 'env:DBPROBE_LENS_PG_URL' },
        {
          name: 'testbed-libsql',
          driver: 'libsql',
          connection: 'env:DBPROBE_LENS_LIBSQL_URL',
          allowWrites: true,
        },
      ],
    }),
  );
  server = await startCodeServer({
    vsixPath: vsix,
    workspaceDir: workspace,
    userSettings: {
      'workbench.colorTheme': 'Default Light Modern',
      'workbench.welcomePage.walkthroughs.openOnInstall': false,
      'dbprobe.iterations': ITERATIONS,
      'dbprobe.warmup': WARMUP,
      'dbprobe.heartbeat.intervalSeconds': HEARTBEAT_SECONDS,
      'dbprobe.appRttMs': APP_RTT_MS,
    },
  });
  workbench = await openWorkbench(server.url);
});

after(async () => {
  await workbench?.close();
  if (server) {
    fs.writeFileSync(path.join(RESULTS, 'code-server-codelens.log'), server.logs());
    await server.stop();
  }
  if (workspace && process.env.DBPROBE_E2E_KEEP !== '1') {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(libsqlUrl.slice('file:'.length), { force: true });
  }
  console.log(`e2e codelens figures: ${JSON.stringify(figures)}`);
});

/** The same table in both databases: one row to read, none written yet. */
async function resetTables(): Promise<void> {
  const ddl = ['DROP TABLE IF EXISTS lens_items', 'CREATE TABLE lens_items (id integer, name text)'];
  const insert = "INSERT INTO lens_items (id, name) VALUES (1, 'first')";
  const pg = new Client({ connectionString: env('DBPROBE_TEST_PG_URL') });
  await pg.connect();
  try {
    for (const statement of [...ddl, insert]) await pg.query(statement);
  } finally {
    await pg.end();
  }
  const libsql = createClient({ url: libsqlUrl });
  try {
    for (const statement of [...ddl, insert]) await libsql.execute(statement);
  } finally {
    libsql.close();
  }
}

async function countWritten(): Promise<{ pg: number; libsql: number }> {
  const pg = new Client({ connectionString: env('DBPROBE_TEST_PG_URL') });
  await pg.connect();
  const libsql = createClient({ url: libsqlUrl });
  try {
    const inPg = await pg.query<{ n: string }>('SELECT count(*) AS n FROM lens_items WHERE id = 2');
    const inLibsql = await libsql.execute('SELECT count(*) AS n FROM lens_items WHERE id = 2');
    return { pg: Number(inPg.rows[0]?.n), libsql: Number(inLibsql.rows[0]?.n) };
  } finally {
    await pg.end();
    libsql.close();
  }
}

async function openQueriesFile(file = 'queries.ts', showing = 'lens_items'): Promise<void> {
  await goToFile(workbench.page, file, showing);
}

/** The run the extension saved (workspace storage) for the statement `query`: the one the lens judged. */
function savedRun(query: string): RunResult {
  const runs = textFilesUnder(server.userDataDir, /\.json$/)
    .filter((t) => t.includes('"schema":"dbprobe.run/v1"'))
    .map((t) => JSON.parse(t) as RunResult)
    .filter((r) => r.targets.every((t) => t.query === query));
  assert.equal(runs.length, 1, `one saved run of ${query}`);
  return runs[0]!;
}

/** The lines of the "other targets…" list (its quick pick), each row's label. */
async function otherTargetRows(): Promise<string[]> {
  const rows = workbench.page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name');
  await rows.first().waitFor({ timeout: 10_000 });
  return (await rows.allInnerTexts()).map((t) => t.trim());
}

function lenses() {
  return workbench.page.locator('.codelens-decoration a');
}

/** Puts the editor's cursor at LINE:COLUMN with Go to Line (the editor keeps the focus). */
async function cursorTo(line: number, column: number): Promise<void> {
  const { page } = workbench;
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: 5_000 });
}

/**
 * The palette rows matching `filter`, opened from where the focus is (the palette offers what the
 * focused editor's `when` context allows). `anchor` is a command always offered: its
 * row shows the list is filled before it is read.
 */
async function paletteRows(filter: string, anchor: string): Promise<string[]> {
  const { page } = workbench;
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input').first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${filter}`);
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await rows.filter({ hasText: anchor }).first().waitFor({ timeout: 10_000 });
  const texts = await rows.allInnerTexts();
  await page.keyboard.press('Escape');
  return texts;
}

/** Reads the palette until `ok` holds (the context key follows the cursor within ~150 ms), bounded. */
async function paletteUntil(
  filter: string,
  anchor: string,
  ok: (rows: string[]) => boolean,
  what: string,
): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  let rows = await paletteRows(filter, anchor);
  while (!ok(rows)) {
    assert.ok(Date.now() < deadline, `${what} within 10 s (palette: ${rows.join(' | ')})`);
    await workbench.page.waitForTimeout(250);
    rows = await paletteRows(filter, anchor);
  }
  return rows;
}

test(
  'the CodeLens over a sql`...` read runs it on both targets; the workload column shows it',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    await openQueriesFile();
    const probe = lenses().filter({ hasText: 'Probe this query' });
    await probe.nth(1).waitFor({ timeout: 30_000 });
    // VS Code redraws the lenses when the provider refreshes (seen: 2 found, then 0 counted a moment
    // later): the count is read until it settles, and must be exactly 2.
    await waitFor(
      'one lens over the read, one over the write',
      () => probe.count(),
      (n) => n === 2,
      10_000,
    );
    await probe.nth(0).click();

    await waitForQuickInputTitle(page, 'Probe this query: targets');
    const rows = await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').allInnerTexts();
    assert.equal(rows.length, 2, `both SQL targets are offered, nothing else: ${rows.join(' | ')}`);
    assert.ok(rows.some((r) => r.includes('testbed-pg')) && rows.some((r) => r.includes('testbed-libsql')));
    await page.keyboard.press('Enter');
    // The ${id} part is a parameter: asked for, then filled in as a literal.
    await waitForQuickInputTitle(page, 'sample value for :id');
    await answerInput(page, '1');

    const started = Date.now();
    const frame = webviewFrame(page, PANEL);
    const workloads = frame.locator('#stats-table td[data-col="workload"]');
    await frame
      .locator('#stats-table tr[data-target="testbed-libsql"][data-kind="subsequent"]')
      .waitFor({ timeout: 90_000 });
    figures.readRunMs = Date.now() - started;
    const rowsShown = await frame.locator('#stats-table tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        target: tr.getAttribute('data-target'),
        kind: tr.getAttribute('data-kind'),
        workload: tr.querySelector('td[data-col="workload"]')?.getAttribute('data-workload'),
        n: Number(tr.querySelector('td:nth-child(3)')?.textContent),
      })),
    );
    assert.deepEqual(rowsShown.map((r) => `${r.target}/${r.kind}`).sort(), [
      'testbed-libsql/initial',
      'testbed-libsql/subsequent',
      'testbed-pg/initial',
      'testbed-pg/subsequent',
    ]);
    for (const row of rowsShown) {
      assert.equal(row.workload, READ, `${row.target} ${row.kind} ran the statement from the editor`);
      assert.equal(row.n, ITERATIONS, `${row.target} ${row.kind}: every sample succeeded`);
    }
    // textContent: the panel skips rendering sections below the fold (content-visibility: auto),
    // and innerText reads a skipped section as empty (even just after scrolling to it).
    assert.equal(((await workloads.first().textContent()) ?? '').trim(), READ);
    await page.screenshot({ path: path.join(RESULTS, 'codelens-panel.png') });

    // Back in the editor, the lens over the read answers about the query: its time from the app
    // (dbprobe.appRttMs 30) for the file's target, in one line that fits the editor; the rest in the
    // hover; the other target and the run's judgement across both only on request.
    await closeAllEditors(page);
    await openQueriesFile();
    const answer = lenses().filter({ hasText: ANSWER_LINE });
    await answer.first().waitFor({ timeout: 15_000 });
    const answerText = await answer.first().innerText();
    figures.lensAnswer = answerText;
    assert.ok(answerText.length <= 100, `fits in 100 characters: ${answerText}`);
    // The projection and the figure here, or (with the database's own time) where the time goes.
    assert.match(
      answerText,
      /^≈ [\d.]+ ms from your app( \(30 ms RTT, \d+ round trips?\) · [\d.]+ ms here on testbed-(pg|libsql)| on testbed-(pg|libsql): .* distance \(1 round trip x 30 ms\))/,
    );
    // A lens's hover is its command's tooltip (the anchor's title): the rest of the answer.
    const hover = (await answer.first().getAttribute('title')) ?? '';
    figures.lensHover = hover.split('\n').slice(0, 3).join(' / ');
    assert.match(hover, /p50 [\d.]+ ms \/ p99 [\d.]+ ms here/);
    assert.match(hover, /local work \+ \d+ round trips? x 30\.0 ms/);
    await page.screenshot({ path: path.join(RESULTS, 'codelens-answer.png') });

    // On request, in a list of its own: the run's judgement across both targets, word for word.
    await lenses().filter({ hasText: 'other targets (1)' }).first().click();
    await waitForQuickInputTitle(page, 'this query on every target');
    const verdicts = lensVerdict(judgeRun(savedRun(READ), { appRttMs: APP_RTT_MS }).rankings);
    const [verdict] = verdicts;
    assert.ok(verdict, 'the saved run ranks its two targets');
    const expected = `${verdict.sentence.replace(/\.$/, '')} · just now`;
    const listed = await otherTargetRows();
    figures.lensVerdict = listed[0] ?? '';
    assert.equal(listed[0], expected);
    assert.match(expected, /^Warm query here: .*testbed-(pg|libsql).*testbed-(pg|libsql)/);
    await page.screenshot({ path: path.join(RESULTS, 'codelens-figures.png') });
    await page.keyboard.press('Escape');
  }),
);

test(
  'a write asks for confirmation naming the target that allows writes, and is refused on the other',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    const probe = lenses().filter({ hasText: 'Probe this query' });
    await probe.nth(1).waitFor({ timeout: 15_000 });
    await probe.nth(1).click();
    // Both targets are remembered for SQL statements in this workspace: accept them as they are.
    await waitForQuickInputTitle(page, 'Probe this query: targets');
    await page.keyboard.press('Enter');

    const dialog = page.locator('.monaco-dialog-box', { hasText: 'is not read-only' });
    await dialog.waitFor({ timeout: 15_000 });
    const text = await dialog.innerText();
    await page.screenshot({ path: path.join(RESULTS, 'codelens-write-confirmation.png') });
    assert.match(text, /this INSERT is not read-only\. Run it on "testbed-libsql"\?/);
    assert.match(text, new RegExp(`runs ${ITERATIONS + WARMUP} times per kind`));
    assert.match(text, /Refused: "testbed-pg" does not allow writes/);
    assert.equal(
      await countWritten().then((c) => c.libsql + c.pg),
      0,
      'nothing was written before the confirmation',
    );
    await dialog.locator('.dialog-buttons .monaco-button', { hasText: 'Run on testbed-libsql' }).click();

    const frame = webviewFrame(page, PANEL);
    await frame
      .locator('#stats-table tr[data-target="testbed-libsql"][data-kind="subsequent"]')
      .waitFor({ timeout: 60_000 });
    const targets = await frame
      .locator('#stats-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-target')));
    assert.deepEqual([...new Set(targets)], ['testbed-libsql'], 'the write ran on testbed-libsql only');
    assert.equal(
      await frame.locator('#stats-table td[data-col="workload"]').first().getAttribute('data-workload'),
      WRITE,
    );
    const written = await countWritten();
    figures.rowsWritten = `${written.libsql} in libSQL, ${written.pg} in PostgreSQL`;
    assert.equal(written.pg, 0, 'PostgreSQL, without allowWrites, got no write');
    assert.equal(written.libsql, 2 * (ITERATIONS + WARMUP), 'each sample of both kinds wrote one row');
  }),
);

test(
  'a write on targets that all refuse it runs nowhere and says why',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    await closeAllEditors(page);
    await openQueriesFile();
    const before = await countWritten();
    const probe = lenses().filter({ hasText: 'Probe this query' });
    await probe.nth(1).waitFor({ timeout: 15_000 });
    await probe.nth(1).click();
    await waitForQuickInputTitle(page, 'Probe this query: targets');
    // Untick testbed-libsql: only the target without allowWrites is left.
    await toggleQuickPickRow(page, 'testbed-libsql');
    await page.locator('.quick-input-widget', { hasText: '1 Selected' }).waitFor({ timeout: 5_000 });
    await page.keyboard.press('Enter');
    await waitForNotification(
      page,
      'refused: this INSERT is not read-only, and "testbed-pg" does not allow writes',
    );
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no confirmation is offered');
    assert.deepEqual(await countWritten(), before, 'nothing more was written anywhere');
  }),
);

test(
  'a PostgreSQL-only statement is offered to PostgreSQL only; a query that fails on libSQL is its own failure',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    await closeAllEditors(page);
    await openQueriesFile('checks.ts', 'pg_class');
    const probe = lenses().filter({ hasText: 'Probe this query' });
    await probe.nth(1).waitFor({ timeout: 30_000 });
    const rowsOf = () =>
      page.locator('.quick-input-widget .quick-input-list .monaco-list-row').allInnerTexts();

    await probe.nth(0).click();
    await waitForQuickInputTitle(page, 'Probe this query: targets');
    const pgOnly = await rowsOf();
    const placeholder = await page.locator('.quick-input-widget input').first().getAttribute('placeholder');
    figures.pgOnlyPick = `${pgOnly.join(' | ')} · ${placeholder}`;
    assert.equal(pgOnly.length, 1, `only PostgreSQL can run ${PG_ONLY}: ${pgOnly.join(' | ')}`);
    assert.match(pgOnly[0]!, /testbed-pg/);
    assert.match(placeholder ?? '', /PostgreSQL syntax \(pg_class\): testbed-libsql left out/);
    await page.keyboard.press('Escape');

    // The pick just closed has the same title: wait for the new one's rows, not the old one's.
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5_000 });
    await probe.nth(1).click();
    await waitForQuickInputTitle(page, 'Probe this query: targets');
    await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row')
      .nth(1)
      .waitFor({ timeout: 5_000 })
      .catch(() => undefined);
    const both = await rowsOf();
    assert.equal(both.length, 2, `${NOW} has no dialect mark: both targets are offered`);
    assert.match(both[0]!, /testbed-pg.*this file imports pg/s, 'the imported driver comes first');
    // Only the imported driver's target is ticked; tick libSQL too, where the query will fail.
    await page.locator('.quick-input-widget', { hasText: '1 Selected' }).waitFor({ timeout: 5_000 });
    await toggleQuickPickRow(page, 'testbed-libsql');
    await page.locator('.quick-input-widget', { hasText: '2 Selected' }).waitFor({ timeout: 5_000 });
    await page.keyboard.press('Enter');

    // The run's panel opens when it ends, over the file: wait for it before putting the file in front.
    await page
      .locator('.tabs-container .tab', { hasText: 'DB Probe: testbed-pg, testbed-libsql' })
      .first()
      .waitFor({ timeout: 120_000 });
    // The tab opens as the run starts: wait for its result, or closing it mid-run brings it back.
    await webviewFrame(page, PANEL)
      .locator('#stats-table tr[data-target="testbed-pg"][data-kind="subsequent"]')
      .waitFor({ timeout: 120_000 });
    await closeAllEditors(page);
    await openQueriesFile('checks.ts', 'pg_class');
    // The file imports pg: its lens answers for testbed-pg; libSQL's failure is shown on request.
    const pgAnswer = lenses().filter({
      hasText:
        /^≈ [\d.]+ ms from your app( \(30 ms RTT, \d+ round trips?\) · [\d.]+ ms here on testbed-pg| on testbed-pg: )/,
    });
    await pgAnswer.first().waitFor({ timeout: 120_000 });
    figures.pgFileLens = await pgAnswer.first().innerText();
    await lenses().filter({ hasText: 'other targets (1)' }).first().click();
    await waitForQuickInputTitle(page, 'this query on every target');
    const failure = (await otherTargetRows()).find((r) => / on testbed-libsql: .*, just now$/.test(r)) ?? '';
    figures.failedLens = failure;
    assert.match(failure, /now/i, 'the list says what failed: the error message names now()');
    assert.doesNotMatch(failure, /\d+ errors\)/);
    await page.keyboard.press('Escape');

    // The sidebar marks the run as a query's and does not call the target failed.
    await page.locator('.activitybar .action-item a[aria-label^="DB Probe"]').click();
    const runs = page.locator('.pane', { hasText: 'Runs' }).locator('.monaco-list-row');
    await runs
      .filter({ hasText: 'testbed-libsql: the query failed there' })
      .first()
      .waitFor({ timeout: 15_000 });
    const libsqlTarget = page
      .locator('.pane', { hasText: 'Targets' })
      .locator('.monaco-list-row', { hasText: 'testbed-libsql' });
    await libsqlTarget.waitFor({ timeout: 15_000 });
    const targetRow = await libsqlTarget.innerText();
    figures.libsqlTargetRow = targetRow;
    assert.doesNotMatch(targetRow, /failed/, `the Targets view: ${targetRow}`);
    assert.equal(
      await page.locator('.statusbar-item', { hasText: /testbed-libsql failed/ }).count(),
      0,
      'the status bar does not call testbed-libsql failed',
    );
    await page.screenshot({ path: path.join(RESULTS, 'codelens-query-failure.png') });
  }),
);

test(
  'Probe This Query is offered only with the cursor on a statement the lens reads',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    await closeAllEditors(page);
    await openQueriesFile();
    const offered = (rows: string[]) => rows.some((r) => r.includes('Probe This Query'));
    // Line 1 is TypeScript (an import), no statement: the palette does not offer the command.
    await cursorTo(1, 5);
    await paletteUntil(
      'DB Probe: Probe',
      'Probe Database Latency',
      (rows) => !offered(rows),
      'no Probe This Query on an import line',
    );
    // Line 4 holds sql`SELECT name FROM lens_items ...`: on it, the command is offered.
    await cursorTo(4, 20);
    const on = await paletteUntil(
      'DB Probe: Probe',
      'Probe Database Latency',
      offered,
      'Probe This Query over the SELECT',
    );
    figures.paletteOverStatement = on.map((r) => r.split('\n')[0]).join(' | ');
    // Off it again, the command goes: the key follows the cursor both ways.
    await cursorTo(2, 1);
    await paletteUntil(
      'DB Probe: Probe',
      'Probe Database Latency',
      (rows) => !offered(rows),
      'Probe This Query gone off the statement',
    );
    await page.screenshot({ path: path.join(RESULTS, 'codelens-palette.png') });
  }),
);

/**
 * Client backends other than this query's, minus those open before the heartbeat started: the
 * testbed's PostgreSQL is shared, and a session someone else left open must not count.
 */
let backendsBefore = new Set<string>();
async function otherBackends(): Promise<string[]> {
  return (await allBackends()).filter((id) => !backendsBefore.has(id));
}

async function allBackends(): Promise<string[]> {
  const pg = new Client({ connectionString: env('DBPROBE_TEST_PG_URL') });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ id: string }>(
      "SELECT pid || '@' || backend_start AS id FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
    );
    return rows.map((r) => r.id);
  } finally {
    await pg.end();
  }
}

async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!ok(value)) {
    assert.ok(Date.now() < deadline, `${what} within ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

test(
  'the heartbeat shows p50 in the status bar, each beat on its own connection, none held between beats',
  onFailureScreenshot(async () => {
    const { page } = workbench;
    const password = env('DBPROBE_TEST_PASSWORD');
    await closeAllEditors(page);
    backendsBefore = new Set(await allBackends());
    // No heartbeat runs yet: nothing to stop, so the palette does not offer Stop Heartbeat.
    await paletteUntil(
      'Heartbeat',
      'Start Heartbeat',
      (rows) => !rows.some((r) => r.includes('Stop Heartbeat')),
      'no Stop Heartbeat',
    );
    await runCommand(page, 'DB Probe: Start Heartbeat');
    await waitForQuickInputTitle(page, 'DB Probe heartbeat: target');
    await pickInQuickInput(page, 'testbed-pg');
    // The heartbeat's own item (the last-run item beside it may name testbed-pg too).
    const item = page.locator('.statusbar-item[id$="dbprobe.heartbeat"]', {
      hasText: /testbed-pg [\d.]+ ms/,
    });
    await item.waitFor({ timeout: 30_000 });
    // Each beat is a one-target probe through the engine: it connects, warms up, times one query and
    // closes, so between beats (seconds apart) the heartbeat holds no connection at all.
    await waitFor(
      'no heartbeat connection between beats',
      otherBackends,
      (ids) => ids.length === 0,
      HEARTBEAT_SECONDS * 1000,
    );
    // Two more beats, for the tooltip's sample count.
    await page.waitForTimeout(2 * HEARTBEAT_SECONDS * 1000 + 1000);
    await item.hover();
    const hover = page
      .locator('.monaco-hover, .workbench-hover', { hasText: 'heartbeat on testbed-pg' })
      .first();
    await hover.waitFor({ timeout: 10_000 });
    const tooltip = await hover.innerText();
    figures.heartbeat = `${await item.innerText()} · ${tooltip.split('\n')[1] ?? ''}`;
    // dbprobe.appRttMs is set: the p50 here is followed by the one at the app's RTT.
    assert.match(
      tooltip,
      /p50 over the last minute: [\d.]+ ms here · ≈ [\d.]+ ms from your app .* \([3-9] samples\)/,
    );
    assertNoSecret([tooltip, await item.innerText()], password);
    await page.screenshot({ path: path.join(RESULTS, 'heartbeat.png') });

    await runCommand(page, 'DB Probe: Stop Heartbeat');
    await item.waitFor({ state: 'hidden', timeout: 10_000 });
    await paletteUntil(
      'Heartbeat',
      'Start Heartbeat',
      (rows) => !rows.some((r) => r.includes('Stop Heartbeat')),
      'Stop Heartbeat gone once stopped',
    );
    await waitFor('the heartbeat connection closed', otherBackends, (ids) => ids.length === 0, 3_000);
  }),
);
