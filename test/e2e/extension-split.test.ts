/**
 * End to end: where a query's time goes, as a user sees it. A .sql file with a slow statement
 * (`SELECT pg_sleep(0.02)`) and a fast one (`SELECT 1`), the testbed's PostgreSQL as the one target
 * and `dbprobe.appRttMs` = 3. "Probe this query" runs each; then:
 * - the panel's "Where a query's time goes" (stacked bars and their table) draws the saved result's
 *   split, here and at 3 ms RTT: every figure of the table equals splitRun over the file the
 *   extension saved, read as text;
 * - each statement's CodeLens says where its time from the app goes ("≈ 23.4 ms from your app on
 *   testbed-pg: 20.1 in the database, 3.0 distance (1 round trip x 3 ms), 0.3 rest"), each figure the
 *   saved result's split at 3 ms RTT;
 * - screenshots of both, kept in docs/images by DBPROBE_E2E_DOCS=1 (docs/extension.md shows them).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { splitRun, SPLIT_PARTS, type QuerySplit } from '../../src/shared/querySplit';
import type { RunResult } from '../../src/shared/result';
import { ms } from '../../src/shared/units';
import { closeAllEditors, goToFile, runCommand, waitForQuickInputTitle, webviewFrame } from './extensionPage';
import {
  EXTENSION_ID,
  RESULTS,
  ROOT,
  env,
  loadEnvironment,
  textFilesUnder,
  withFailureScreenshot,
} from './extensionSetup';
import { openSession, type Session } from './extensionSession';
import { expectedSplitFigures, lensSplitFigures } from './splitLens';

const PANEL = { extensionId: EXTENSION_ID };
const APP_RTT_MS = 3;
const TARGET = 'testbed-pg';
const SLOW = 'SELECT pg_sleep(0.02) AS slow';
const FAST = 'SELECT 1 AS fast';
const DOCS_IMAGES = path.join(ROOT, 'docs', 'images');
const figures: Record<string, string | number> = {};
let session: Session | undefined;
const onFailureScreenshot = withFailureScreenshot(
  () => session?.workbench.page,
  () => session?.server.userDataDir,
);

before(async () => {
  // Run alone too: the testbed's and code-server's settings, as npm test would have exported them.
  loadEnvironment();
  // The extension host inherits this process's environment: the target's connection comes from it.
  process.env.DBPROBE_SPLIT_PG_URL = env('DBPROBE_TEST_PG_URL');
  session = await openSession({
    name: 'split',
    figures,
    files: () => ({
      'queries.sql': `-- where the time goes\n${SLOW};\n\n${FAST};\n`,
      'dbprobe.json': JSON.stringify({
        targets: [{ name: TARGET, driver: 'pg', connection: 'env:DBPROBE_SPLIT_PG_URL' }],
      }),
    }),
    settings: { 'dbprobe.iterations': 20, 'dbprobe.warmup': 1, 'dbprobe.appRttMs': APP_RTT_MS },
  });
});

after(async () => {
  await session?.close();
  console.log(`e2e split figures: ${JSON.stringify(figures)}`);
});

function page(): Page {
  assert.ok(session);
  return session.workbench.page;
}

/** The run the extension saved (workspace storage) of `statement`: the one the panel and lens show. */
function savedRun(statement: string): RunResult {
  assert.ok(session);
  const runs = textFilesUnder(session.server.userDataDir, /\.json$/)
    .filter((t) => t.includes('"schema":"dbprobe.run/v1"'))
    .map((t) => JSON.parse(t) as RunResult)
    .filter((r) => r.targets.every((t) => t.query.includes(statement)));
  assert.equal(runs.length, 1, `one saved run of ${statement}`);
  return runs[0]!;
}

/** A screenshot in test-results/e2e, and in docs/images too with DBPROBE_E2E_DOCS=1. */
async function keep(name: string, clip?: { x: number; y: number; width: number; height: number }) {
  const file = path.join(RESULTS, name);
  await page().screenshot({ path: file, ...(clip ? { clip } : {}) });
  if (process.env.DBPROBE_E2E_DOCS === '1') {
    fs.mkdirSync(DOCS_IMAGES, { recursive: true });
    fs.copyFileSync(file, path.join(DOCS_IMAGES, name));
  }
}

/** The table's rows as the panel formats them (webview/splitView.ts), from a split. */
function expectedRow(label: string, split: QuerySplit): string[] {
  return [
    label,
    ms(split.p50Us),
    ...SPLIT_PARTS.map((part) => {
      const us = split.parts[part];
      if (us === undefined) return 'not given';
      return part === 'distance'
        ? `${ms(us)} (${split.turns} × ${ms(split.rttUs ?? split.floor.us)})`
        : ms(us);
    }),
    split.source ?? '-',
  ];
}

/**
 * Probes the statement showing `marker` through its lens; returns the panel's split table and the
 * notes under it (why a part is not given), as text.
 */
async function probeAndReadSplit(
  marker: string,
  shot: string,
): Promise<{ rows: string[][]; notes: string[] }> {
  const p = page();
  await closeAllEditors(p);
  await goToFile(p, 'queries.sql', 'where the time goes');
  // The lens of a statement sits just above its line; VS Code redraws lenses as the provider
  // refreshes, so the boxes are read again until one is found (bounded).
  const line = p.locator('.view-lines .view-line', { hasText: marker }).first();
  const probes = p.locator('.codelens-decoration a').filter({ hasText: 'Probe this query' });
  await line.waitFor({ timeout: 30_000 });
  await probes.first().waitFor({ timeout: 30_000 });
  const seen: string[] = [];
  const deadline = Date.now() + 15_000;
  let clicked = false;
  while (!clicked && Date.now() < deadline) {
    const top = (await line.boundingBox())?.y;
    const boxes = await Promise.all(
      (await probes.all()).map(async (probe) => ({ probe, box: await probe.boundingBox() })),
    );
    seen.push(`line ${top}: lenses ${boxes.map((b) => b.box?.y).join(', ')}`);
    const above = boxes.filter((b) => top !== undefined && b.box && b.box.y < top && top - b.box.y < 40);
    if (above[0]) {
      await above[0].probe.click();
      clicked = true;
    } else await p.waitForTimeout(500);
  }
  assert.ok(clicked, `a "Probe this query" lens over ${marker} (${seen.slice(-3).join('; ')})`);
  await waitForQuickInputTitle(p, 'Probe this query: targets');
  await p.keyboard.press('Enter');

  const frame = webviewFrame(p, PANEL);
  const summary = frame.locator('details[data-fold="split"] > summary');
  await summary.waitFor({ timeout: 120_000 });
  // The panel alone on the screen, as a reader of the split would look at it.
  await runCommand(p, 'View: Single Column Editor Layout');
  await p.locator('.tabs-container .tab', { hasText: 'DB Probe' }).first().click();
  await summary.waitFor({ timeout: 30_000 });
  await summary.click();
  const table = frame.locator('#split-table');
  await table.waitFor({ state: 'visible', timeout: 10_000 });
  const rows = await frame
    .locator('#split-table tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from(
          tr.querySelectorAll('td') as ArrayLike<{ textContent: string | null }>,
          (td) => td.textContent ?? '',
        ),
      ),
    );
  const notes = await frame.locator('#split [data-not-given]').allInnerTexts();
  await frame.locator('#split').evaluate((el) => (el as { scrollIntoView(): void }).scrollIntoView());
  const box = await p.locator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"]`).boundingBox();
  assert.ok(box, 'the panel is on screen');
  await keep(shot, box);
  return { rows, notes };
}

test(
  'the panel draws the saved split of a slow and a fast query; each lens says where its time goes',
  onFailureScreenshot(async () => {
    const shown: Record<string, { rows: string[][]; notes: string[] }> = {
      [SLOW]: await probeAndReadSplit('pg_sleep', 'split-panel-slow.png'),
      [FAST]: await probeAndReadSplit('AS fast', 'split-panel-fast.png'),
    };
    for (const statement of [SLOW, FAST]) {
      const result = savedRun(statement);
      const here = splitRun(result.measurements, [TARGET]).splits;
      const atApp = splitRun(result.measurements, [TARGET], APP_RTT_MS * 1000).splits;
      assert.deepEqual(
        shown[statement]!.rows,
        [
          ...here.map((s) => expectedRow(`${s.target} ${s.kind}`, s)),
          ...atApp.map((s) => expectedRow(`${s.target} ${s.kind} at ${APP_RTT_MS} ms RTT`, s)),
        ],
        `the panel's split of ${statement} is the saved result's`,
      );
      // Each part not given is said once under the table, with why: here the warm query's client.
      assert.deepEqual(shown[statement]!.notes, [
        'client not given (subsequent): a warm query has no CPU figure of its own.',
      ]);
      figures[`table ${statement}`] = JSON.stringify(shown[statement]!.rows);
    }
    // The slow query's database part is the sleep, by the server's own clock: it is what was drawn.
    const slowDb = splitRun(savedRun(SLOW).measurements, [TARGET]).splits.find((s) => s.kind === 'subsequent')
      ?.parts.database;
    assert.ok(slowDb !== undefined && slowDb >= 20_000, `pg_sleep(0.02) in the database: ${slowDb} µs`);

    // Back in the editor: each statement's lens is its own run's split at the app's RTT.
    const p = page();
    await closeAllEditors(p);
    await goToFile(p, 'queries.sql', 'where the time goes');
    const answers = p.locator('.codelens-decoration a').filter({ hasText: 'from your app' });
    await answers.nth(1).waitFor({ timeout: 30_000 });
    const titles = await answers.allInnerTexts();
    assert.equal(titles.length, 2, `one answer per statement: ${titles.join(' | ')}`);
    for (const [i, statement] of [SLOW, FAST].entries()) {
      const title = titles[i]!;
      figures[`lens ${statement}`] = title;
      const expected = expectedSplitFigures(savedRun(statement), TARGET, APP_RTT_MS);
      assert.ok(expected, `the saved run of ${statement} has the database time`);
      assert.deepEqual(lensSplitFigures(title), expected, `the lens of ${statement}`);
    }
    const editor = await p.locator('.monaco-editor').first().boundingBox();
    assert.ok(editor);
    await keep('split-codelens.png', { ...editor, height: Math.min(editor.height, 200) });
  }),
);
