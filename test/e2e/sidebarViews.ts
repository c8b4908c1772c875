/**
 * The DB Probe sidebar as a user meets it: its width set by dragging the sash, as a person would,
 * and the rows of its tree views read as the screen reader reads them (each row's aria label) and as
 * the eye does (the row's label and description, and how much of them is on screen).
 */
import type { Locator, Page } from 'playwright-core';

const SIDEBAR = '.part.sidebar';

/** Opens the DB Probe view container in the sidebar. */
export async function showDbProbeSidebar(page: Page): Promise<void> {
  const sidebar = page.locator(SIDEBAR);
  const shown = await sidebar
    .locator('.composite.title', { hasText: /DB Probe/i })
    .isVisible()
    .catch(() => false);
  if (!shown) await page.locator('.activitybar .action-item a[aria-label^="DB Probe"]').click();
  await paneOf(page, 'Runs').waitFor({ timeout: 15_000 });
}

/** Drags the sash at the sidebar's right edge until the sidebar is `width` px wide; returns its width. */
export async function setSidebarWidth(page: Page, width: number): Promise<number> {
  const sidebar = page.locator(SIDEBAR);
  for (let attempt = 0; attempt < 3; attempt++) {
    const box = await sidebar.boundingBox();
    if (!box) throw new Error('no sidebar on screen');
    if (Math.abs(box.width - width) <= 2) return box.width;
    const edge = box.x + box.width;
    // The vertical sash nearest the sidebar's right edge.
    const sashes = await page.locator('.monaco-sash.vertical').evaluateAll((els) =>
      els.map((el) => {
        const r = (
          el as unknown as { getBoundingClientRect(): { x: number; width: number } }
        ).getBoundingClientRect();
        return r.x + r.width / 2;
      }),
    );
    const x = sashes.sort((a, b) => Math.abs(a - edge) - Math.abs(b - edge))[0];
    if (x === undefined || Math.abs(x - edge) > 6) throw new Error(`no sash at the sidebar's edge (${edge})`);
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + (width - box.width) / 2, y, { steps: 5 });
    await page.mouse.move(x + (width - box.width), y, { steps: 5 });
    await page.mouse.up();
  }
  return (await sidebar.boundingBox())?.width ?? 0;
}

export function paneOf(page: Page, title: string): Locator {
  return page
    .locator(`${SIDEBAR} .pane`)
    .filter({ has: page.locator('.pane-header h3.title', { hasText: new RegExp(`^${title}$`, 'i') }) });
}

export interface TreeRow {
  aria: string;
  label: string;
  description: string;
  /** How many px of the label's text are on screen (the rest cut with an ellipsis). */
  labelShownPx: number;
  /** The row's right edge against the sidebar's: nothing of a row lies outside it. */
  rightPx: number;
  /** The label and description as far as they are on screen, before VS Code's ellipsis. */
  shownText: string;
}

/** The rows of one tree view (Runs, Targets), top first. */
export async function treeRows(page: Page, title: string): Promise<TreeRow[]> {
  const rows = paneOf(page, title).locator('.monaco-list-row');
  const found: TreeRow[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const label = row.locator('.label-name').first();
    const description = row.locator('.label-description').first();
    const rowBox = await row.boundingBox();
    // The label's part inside the box that clips it (VS Code cuts a long label with an ellipsis there).
    const labelShownPx = await label.evaluate((node) => {
      type El = { getBoundingClientRect(): { left: number; right: number }; closest(s: string): El | null };
      const el = node as unknown as El;
      const own = el.getBoundingClientRect();
      const clip = (el.closest('.monaco-icon-label-container') ?? el).getBoundingClientRect();
      return Math.max(0, Math.min(own.right, clip.right) - own.left);
    });
    const shownText = await row
      .locator('.monaco-icon-label-container')
      .first()
      .evaluate((node) => {
        type Text = { textContent: string };
        type Box = { getBoundingClientRect(): { right: number } };
        type Doc = {
          createTreeWalker(root: unknown, what: number): { nextNode(): Text | null };
          createRange(): Box & { setStart(n: Text, i: number): void; setEnd(n: Text, i: number): void };
        };
        const container = node as unknown as Box & { ownerDocument: Doc };
        const doc = container.ownerDocument;
        // The ellipsis covers the last characters before the edge: a character counts as shown only
        // when it ends a little before it.
        const edge = container.getBoundingClientRect().right - 12;
        const walker = doc.createTreeWalker(node, 4 /* text nodes */);
        const range = doc.createRange();
        let text = '';
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
          for (let i = 0; i < t.textContent.length; i++) {
            range.setStart(t, i);
            range.setEnd(t, i + 1);
            if (range.getBoundingClientRect().right > edge) return text;
            text += t.textContent.charAt(i);
          }
          text += ' ';
        }
        return text;
      });
    found.push({
      shownText,
      aria: (await row.getAttribute('aria-label')) ?? '',
      label: ((await label.textContent()) ?? '').trim(),
      description: (await description.count()) > 0 ? ((await description.textContent()) ?? '').trim() : '',
      labelShownPx,
      rightPx: rowBox ? rowBox.x + rowBox.width : 0,
    });
  }
  return found;
}

/** Polls `read` until `ok` holds or `timeoutMs` passes; returns the last value read. */
export async function readUntil<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}
