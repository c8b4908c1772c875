// Opens the code-server workbench in Debian's Chromium through playwright-core (never `playwright
// install`: it downloads a browser, which cannot be fetched here).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { chromiumPath } from './tools';

export interface Workbench {
  page: Page;
  context: BrowserContext;
  /** Closes the browser and removes the profile folder if this call made it. */
  close(): Promise<void>;
}

export interface OpenWorkbenchOptions {
  /**
   * A profile folder to reuse. SecretStorage lives (encrypted) in the browser profile, so a test that
   * stores a secret and reads it after a reload passes the same folder twice. Default: a fresh one.
   */
  profileDir?: string;
  /** Bound for the browser start and the workbench to render. */
  timeoutMs?: number;
  viewport?: { width: number; height: number };
}

// Exactly the flags of shared/TESTBED.md: root needs --no-sandbox, there is no GPU, and nothing may
// call home (no QUIC, no component updates, no sync, no background networking).
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function openWorkbench(url: string, opts: OpenWorkbenchOptions = {}): Promise<Workbench> {
  const timeout = opts.timeoutMs ?? 60_000;
  const ownProfile = opts.profileDir === undefined;
  const profileDir = opts.profileDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dbprobe-chromium-'));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: opts.viewport ?? { width: 1400, height: 900 },
    timeout,
  });
  const close = async () => {
    await context.close().catch(() => undefined);
    if (ownProfile) fs.rmSync(profileDir, { recursive: true, force: true });
  };
  try {
    context.setDefaultTimeout(30_000);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout });
    // .monaco-workbench appears once the workbench has rendered its parts; the status bar is the last
    // part to be laid out, so both together mean "ready for keyboard input".
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout });
    return { page, context, close };
  } catch (e) {
    await close();
    throw e;
  }
}
