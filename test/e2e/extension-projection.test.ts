/**
 * End to end: the projection to the app's distance (docs/measuring.md) in a real VS Code. A .sql file with one
 * read and a PostgreSQL target on the testbed; settings `dbprobe.projection.rtts` = [1, 10, 40] and
 * `dbprobe.appRttMs` = 3. "Probe this query" runs it; then:
 * - the panel's "From where your app runs" chart has one line per target and kind, and the figures it
 *   draws (its table) equal the saved result’s projections at those RTTs and at the app’s (projectRun on the file the
 *   extension saved), not merely "present";
 * - the CodeLens over the statement shows "≈ X ms from your app (3 ms RTT, 1 round trip) · … here", X
 *   equal to the saved result's projection at 3 ms, or with the database's own time where X goes
 *   ("≈ X ms from your app: … in the database, … distance (1 round trip x 3 ms)"), each figure the
 *   saved result's split at 3 ms.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { shortMs } from '../../src/extension/queries/lensText';
import { projectAt, projectRun } from '../../src/shared/projection';
import type { RunResult } from '../../src/shared/result';
import { ms } from '../../src/shared/units';
import { closeAllEditors, goToFile, waitForQuickInputTitle, webviewFrame } from './extensionPage';
import { EXTENSION_ID, RESULTS, env, textFilesUnder, withFailureScreenshot } from './extensionSetup';
import { openSession, type Session } from './extensionSession';
import { expectedSplitFigures, lensSplitFigures } from './splitLens';

const PANEL = { extensionId: EXTENSION_ID };
const RTTS_MS = [1, 10, 40];
const APP_RTT_MS = 3;
const TARGET = 'testbed-pg';
const figures: Record<string, string | number> = {};
let session: Session | undefined;
const onFailureScreenshot = withFailureScreenshot(
  () => session?.workbench.page,
  () => session?.server.userDataDir,
);

before(async () => {
  // The extension host inherits this process's environment: the target's connection comes from it.
  process.env.DBPROBE_PROJECTION_PG_URL = env('DBPROBE_TEST_PG_URL');
  session = await openSession({
    name: 'projection',
    figures,
    files: () => ({
      'queries.sql': 'SELECT 1 AS projected;\n',
      'dbprobe.json': JSON.stringify({
        targets: [{ name: TARGET, driver: 'pg', connection: 'env:DBPROBE_PROJECTION_PG_URL' }],
      }),
    }),
    settings: {
      'dbprobe.iterations': 12,
      'dbprobe.warmup': 1,
      'dbprobe.projection.rtts': RTTS_MS,
      'dbprobe.appRttMs': APP_RTT_MS,
    },
  });
});

after(async () => {
  await session?.close();
  console.log(`e2e projection figures: ${JSON.stringify(figures)}`);
});

function page() {
  assert.ok(session);
  return session.workbench.page;
}

async function openQueries(): Promise<void> {
  await goToFile(page(), 'queries.sql', 'projected');
}

/** The run the extension saved (workspace storage): the one the panel and the lens were built from. */
function savedResult(): RunResult {
  assert.ok(session);
  const runs = textFilesUnder(session.server.userDataDir, /\.json$/)
    .filter((t) => t.includes('"schema":"dbprobe.run/v1"'))
    .map((t) => JSON.parse(t) as RunResult)
    .filter((r) => r.targets.some((t) => t.name === TARGET));
  assert.equal(runs.length, 1, 'one saved run');
  return runs[0]!;
}

test(
  'the panel chart draws the saved result’s projections; the CodeLens shows the one at the app RTT',
  onFailureScreenshot(async () => {
    const p = page();
    await openQueries();
    const probe = p.locator('.codelens-decoration a').filter({ hasText: 'Probe this query' });
    await probe.first().waitFor({ timeout: 30_000 });
    await probe.first().click();
    await waitForQuickInputTitle(p, 'Probe this query: targets');
    await p.keyboard.press('Enter');

    const frame = webviewFrame(p, PANEL);
    await frame.locator('#projection canvas[data-chart="projection"]').waitFor({ timeout: 90_000 });
    const drawn = await frame
      .locator('#projection-table tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) =>
          Array.from(
            tr.querySelectorAll('td') as ArrayLike<{ textContent: string | null }>,
            (td) => td.textContent ?? '',
          ),
        ),
      );
    await p.screenshot({ path: path.join(RESULTS, 'projection-panel.png') });

    const result = savedResult();
    // The panel's columns: dbprobe.projection.rtts with the app's RTT (dbprobe.appRttMs) among them.
    const set = projectRun(result, { rttsMs: [...RTTS_MS, APP_RTT_MS].sort((a, b) => a - b) });
    const pg = set.targets.find((t) => t.target === TARGET);
    assert.ok(pg?.initialAtUs && pg.subsequentAtUs, `projected: ${JSON.stringify(set.skipped)}`);
    const expected = [
      [TARGET, 'initial', String(pg.initial!.turns), ms(pg.initial!.p50Us), ...pg.initialAtUs.map(ms)],
      [
        TARGET,
        'subsequent',
        String(pg.subsequent!.turns),
        ms(pg.subsequent!.p50Us),
        ...pg.subsequentAtUs.map(ms),
      ],
    ];
    assert.deepEqual(drawn, expected, 'the chart’s figures are the saved result’s projections');
    figures.drawn = JSON.stringify(drawn);

    // Back in the editor: the lens figure equals the saved result's projection at dbprobe.appRttMs.
    await closeAllEditors(p);
    await openQueries();
    const projectedUs = projectAt(pg.subsequent!, APP_RTT_MS * 1000);
    const turns = pg.subsequent!.turns;
    const trips = `${turns} round trip${turns === 1 ? '' : 's'}`;
    const plain = `≈ ${shortMs(projectedUs)} from your app (${APP_RTT_MS} ms RTT, ${trips}) · ${shortMs(pg.subsequent!.p50Us)} here on ${TARGET}`;
    const lens = p
      .locator('.codelens-decoration a')
      .filter({ hasText: `≈ ${shortMs(projectedUs)} from your app` });
    await lens.first().waitFor({ timeout: 15_000 });
    figures.lens = await lens.first().innerText();
    const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // With the database's own time, the line is where that time goes (each figure the saved split's
    // at the app's RTT); without, the projection and the figure here.
    const split = expectedSplitFigures(result, TARGET, APP_RTT_MS);
    if (split) assert.deepEqual(lensSplitFigures(figures.lens), split);
    else assert.match(figures.lens, new RegExp(`^${escape(plain)}( · just now)?$`));
    // The hover has the rest: the p99, and where the saved result has the database's own time, the
    // split of the projected figure.
    const p99 = shortMs(
      result.measurements.find((m) => m.target === TARGET && m.kind === 'subsequent')!.stats.p99Us,
    );
    const hover = (await lens.first().getAttribute('title')) ?? '';
    figures.lensHover = hover.split('\n').slice(0, 3).join(' / ');
    assert.match(hover, new RegExp(`p99 ${escape(p99)} here`));
    if (hover.includes('Where it goes'))
      assert.match(
        hover,
        /Where it goes: [\d.]+ ms in the database, [\d.]+ ms distance \(1 round trip x 3\.0 ms\)/,
      );
    await p.screenshot({ path: path.join(RESULTS, 'projection-codelens.png') });
  }),
);
