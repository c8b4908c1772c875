/**
 * End to end: the editor measures the driver its workspace installed. A workspace with its own
 * node_modules/pg at an older version than the one bundled with the extension (installed from the
 * npm registry, or npm's cache) and a PostgreSQL target on the testbed:
 * - trusted: after a probe the panel names that version, "pg 8.11.3 from your workspace", and the
 *   saved result records it with source "project";
 * - untrusted (workspace trust on, the folder not trusted): the workspace's packages are never
 *   loaded (that would run its code); the bundled pg is measured, and the panel and the result say so.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import type { RunResult } from '../../src/shared/result';
import { answerDialog, probeWithDefaults, webviewFrame } from './extensionPage';
import {
  EXTENSION_ID,
  ROOT,
  env,
  loadEnvironment,
  textFilesUnder,
  withFailureScreenshot,
} from './extensionSetup';
import { openSession, type Session } from './extensionSession';

const WORKSPACE_PG = '8.11.3';
const TARGET = 'workspace-pg';
const figures: Record<string, string | number> = {};
let session: Session | undefined;
const onFailureScreenshot = withFailureScreenshot(
  () => session?.workbench.page,
  () => session?.server.userDataDir,
);

/** pg at WORKSPACE_PG in a folder of its own, installed once; each workspace gets a copy. */
let installedPg: string | undefined;
function workspacePg(): string {
  if (installedPg) return installedPg;
  const dir = path.join(ROOT, 'test', 'e2e', '.work', `pg-${WORKSPACE_PG}`);
  if (!fs.existsSync(path.join(dir, 'node_modules', 'pg', 'package.json'))) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-exact', `pg@${WORKSPACE_PG}`],
      { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000 },
    );
  }
  installedPg = path.join(dir, 'node_modules');
  return installedPg;
}

async function openWorkspace(name: string, trusted: boolean): Promise<Session> {
  // One code-server at a time: a test that failed before closing its own leaves it to the next.
  await session?.close();
  session = undefined;
  // The testbed's URLs first (openSession would load them too, after the target needs one).
  loadEnvironment();
  process.env.DBPROBE_DRIVER_VERSION_PG_URL = env('DBPROBE_TEST_PG_URL');
  const opened = await openSession({
    name,
    figures,
    ...(trusted
      ? {}
      : {
          workspaceTrust: true,
          settings: {
            'security.workspace.trust.startupPrompt': 'never',
            'security.workspace.trust.banner': 'never',
            'dbprobe.iterations': 5,
            'dbprobe.warmup': 1,
          },
        }),
    ...(trusted ? { settings: { 'dbprobe.iterations': 5, 'dbprobe.warmup': 1 } } : {}),
    files: () => ({
      'package.json': JSON.stringify({ name: 'app', private: true, dependencies: { pg: WORKSPACE_PG } }),
      'dbprobe.json': JSON.stringify({
        targets: [{ name: TARGET, driver: 'pg', connection: 'env:DBPROBE_DRIVER_VERSION_PG_URL' }],
      }),
    }),
  });
  fs.cpSync(workspacePg(), path.join(opened.workspace, 'node_modules'), { recursive: true });
  return opened;
}

function savedResult(): RunResult {
  assert.ok(session);
  const runs = textFilesUnder(session.server.userDataDir, /\.json$/)
    .filter((t) => t.includes('"schema":"dbprobe.run/v1"'))
    .map((t) => JSON.parse(t) as RunResult)
    .filter((r) => r.targets.some((t) => t.name === TARGET));
  assert.equal(runs.length, 1, 'one saved run');
  return runs[0]!;
}

/** The panel's footer (the environment line), once the run's tables are there. */
async function panelFooter(): Promise<string> {
  assert.ok(session);
  const frame = webviewFrame(session.workbench.page, { extensionId: EXTENSION_ID });
  const footer = frame.locator('footer', { hasText: 'samples per target and kind' });
  await footer.first().waitFor({ timeout: 90_000 });
  return footer.first().innerText();
}

after(async () => {
  await session?.close();
  console.log(`e2e driver-version figures: ${JSON.stringify(figures)}`);
});

test(
  "a trusted workspace: the panel names the workspace's pg after a probe",
  onFailureScreenshot(async () => {
    session = await openWorkspace('driver-version-trusted', true);
    const bundled = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/pg/package.json'), 'utf8'))
      .version as string;
    assert.notEqual(bundled, WORKSPACE_PG, 'the workspace has another version than the bundled one');
    await probeWithDefaults(session.workbench.page);
    const footer = await panelFooter();
    figures.trustedFooter = footer;
    assert.ok(footer.includes(`pg ${WORKSPACE_PG} from your workspace`), footer);
    assert.ok(!footer.includes(`pg ${bundled}`), footer);
    assert.deepEqual(savedResult().environment.drivers.pg, {
      package: 'pg',
      version: WORKSPACE_PG,
      source: 'project',
    });
    await session.workbench.page.screenshot({
      path: path.join(ROOT, 'test-results', 'e2e', 'driver-version-trusted.png'),
    });
  }),
);

test(
  'an untrusted workspace: the bundled pg is used, and the panel and the result say so',
  onFailureScreenshot(async () => {
    session = await openWorkspace('driver-version-untrusted', false);
    const p = session.workbench.page;
    await p.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 30_000 });
    await probeWithDefaults(p);
    await answerDialog(p, 'This workspace is not trusted', 'Probe Once', 15_000);
    const footer = await panelFooter();
    figures.untrustedFooter = footer;
    const bundled = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/pg/package.json'), 'utf8'))
      .version as string;
    assert.ok(footer.includes(`pg ${bundled} (bundled with dbprobe)`), footer);
    assert.ok(!footer.includes(WORKSPACE_PG), footer);
    const pg = savedResult().environment.drivers.pg;
    assert.equal(pg?.version, bundled);
    assert.equal(pg?.source, 'bundled');
    assert.match(pg?.note ?? '', /the workspace is not trusted/);
    await p.screenshot({ path: path.join(ROOT, 'test-results', 'e2e', 'driver-version-untrusted.png') });
  }),
);
