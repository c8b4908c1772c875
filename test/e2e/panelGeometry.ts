/**
 * What of the run panel a user can read, from the boxes the browser laid out: what scrolls sideways,
 * which figures are cut, whether an element lies wholly inside the panel's part of the screen and in
 * the first viewport. Read in the page (the Node side of the tests loads no DOM library).
 */
import type { FrameLocator, Locator, Page } from 'playwright-core';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What these checks read of an element in the page. */
interface PageElement {
  tagName: string;
  className: unknown;
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  childNodes: Iterable<{ nodeType: number; textContent: string | null }>;
  getBoundingClientRect(): { left: number; right: number; width: number; top: number; bottom: number };
  getClientRects(): { length: number };
  parentElement: PageElement | null;
  id: string;
  open?: boolean;
  closest(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  ownerDocument: {
    scrollingElement: PageElement | null;
    documentElement: PageElement;
    defaultView: {
      innerHeight: number;
      scrollTo(x: number, y: number): void;
      getComputedStyle(
        e: unknown,
        pseudo?: string,
      ): {
        overflowX: string;
        content: string;
        display: string;
        visibility: string;
        clipPath: string;
        contentVisibility: string;
      };
    };
  };
}

/** Whether `locator` is visible and lies wholly inside `box` (the panel's part of the screen). */
export async function onScreen(locator: Locator, box: Box): Promise<boolean> {
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

/** Whether `locator`'s bottom is inside the page's viewport: seen without scrolling anything. */
export async function inFirstViewport(page: Page, locator: Locator): Promise<boolean> {
  const own = await locator.boundingBox();
  const height = page.viewportSize()?.height;
  return own !== null && height !== undefined && own.y >= 0 && own.y + own.height <= height + 1;
}

/**
 * Every shown element of the panel that scrolls sideways (overflow auto or scroll, content wider
 * than its box), the page itself included, and every one that runs past the panel's right edge.
 */
export async function sidewaysScrollers(frame: FrameLocator): Promise<string[]> {
  return (await readPanel(frame, 'body')).sideways;
}

/**
 * Figures cut by their box: every shown element whose own text holds a digit and is wider than its
 * box (clipped, or cut with an ellipsis), or that runs past the panel's right edge. `within` limits
 * the search (default: the whole panel).
 */
export async function cutFigures(frame: FrameLocator, within = 'body'): Promise<string[]> {
  return (await readPanel(frame, within)).cut;
}

/**
 * What scrolls sideways and which figures are cut, section by section as a reader scrolling down
 * meets them: each section brought on screen and given a moment to lay out (its charts follow the
 * panel's width then), then read; back at the top afterwards.
 */
export async function everySection(frame: FrameLocator): Promise<{ sideways: string[]; cut: string[] }> {
  const found = { sideways: [] as string[], cut: [] as string[] };
  const ids = await frame
    .locator('section[id]')
    .evaluateAll((els) =>
      (els as unknown as PageElement[]).flatMap((el) => (el.getClientRects().length > 0 ? [el.id] : [])),
    );
  for (const id of ids) {
    const section = frame.locator(`section#${id}`).first();
    await section.scrollIntoViewIfNeeded();
    let reading = await readPanel(frame, `section#${id}`);
    const deadline = Date.now() + 5_000;
    while ((reading.sideways.length > 0 || reading.cut.length > 0) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      reading = await readPanel(frame, `section#${id}`);
    }
    found.sideways.push(...reading.sideways);
    found.cut.push(...reading.cut);
  }
  await frame.locator('body').evaluate((node) => {
    (node as unknown as PageElement).ownerDocument.defaultView.scrollTo(0, 0);
  });
  return found;
}

/** One pass over the shown elements under `within`: what scrolls sideways, which figures are cut. */
async function readPanel(
  frame: FrameLocator,
  within: string,
): Promise<{ sideways: string[]; cut: string[] }> {
  return frame
    .locator(within)
    .first()
    .evaluate((node) => {
      const scope = node as unknown as PageElement;
      const doc = scope.ownerDocument;
      const width = doc.documentElement.clientWidth;
      const sideways: string[] = [];
      const cut: string[] = [];
      const root = doc.scrollingElement;
      if (root && root.scrollWidth > root.clientWidth + 1)
        sideways.push(`the page (${root.scrollWidth} > ${root.clientWidth})`);
      for (const el of [scope, ...scope.querySelectorAll('*')]) {
        // Laid out, not folded away and not clipped to nothing: Chromium lays out a closed
        // <details>'s content (hidden, not removed), so the fold itself says; its summary stays
        // shown. (No helper function here: the test runner's transform would name it with a
        // function the page does not have.)
        if (el.getClientRects().length === 0) continue;
        let folded = false;
        for (let at: PageElement | null = el; at && !folded; at = at.parentElement) {
          const fold = at.parentElement;
          folded =
            (fold?.tagName === 'DETAILS' && fold.open !== true && at.tagName !== 'SUMMARY') ||
            // A head kept for screen readers only (clipped to nothing) is not on screen either.
            doc.defaultView.getComputedStyle(at).clipPath !== 'none' ||
            // A section off screen is skipped (content-visibility: auto): its charts take the
            // panel's width when it comes on screen (everySection scrolls each one there).
            (doc.defaultView.getComputedStyle(at).contentVisibility === 'auto' &&
              (at.getBoundingClientRect().bottom < 0 ||
                at.getBoundingClientRect().top > doc.defaultView.innerHeight));
        }
        const style = doc.defaultView.getComputedStyle(el);
        if (folded || style.visibility === 'hidden') continue;
        const right = el.getBoundingClientRect().right;
        const name = `${el.tagName}.${String(el.className)} in #${el.closest('section')?.id ?? '?'}`;
        if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1)
          sideways.push(`${name} scrolls (${el.scrollWidth} > ${el.clientWidth})`);
        else if (right > width + 1)
          sideways.push(`${name} runs past the panel (${Math.round(right)} > ${width})`);
        const own = [...el.childNodes]
          .filter((c) => c.nodeType === 3)
          .map((c) => c.textContent ?? '')
          .join('');
        // An inline element has no box width of its own: its block's check covers it.
        const clipped = style.display !== 'inline' && el.scrollWidth > el.clientWidth + 1;
        if (/\d/.test(own) && (clipped || right > width + 1)) cut.push(el.textContent ?? '');
      }
      return { sideways, cut };
    });
}

/** The content of `element::before` (the narrow table's labels), as the computed style has it. */
export async function beforeContent(locator: Locator): Promise<string> {
  return locator.evaluate((node) => {
    const el = node as unknown as PageElement;
    return el.ownerDocument.defaultView.getComputedStyle(el, '::before').content;
  });
}

/** The content of `element::after` (the narrow table's units), as the computed style has it. */
export async function afterContent(locator: Locator): Promise<string> {
  return locator.evaluate((node) => {
    const el = node as unknown as PageElement;
    return el.ownerDocument.defaultView.getComputedStyle(el, '::after').content;
  });
}

/** A body cell of a narrow table as it reads: the label before it, its text, the unit after it. */
export interface ReadCell {
  /** The cell's data attributes (data-stat, data-place...), to say which figure it is. */
  data: Record<string, string>;
  before: string;
  text: string;
  after: string;
  /** Its box's edges against the panel's: inside it, nothing cut. */
  left: number;
  right: number;
  width: number;
}

export interface ReadTable {
  cells: ReadCell[];
  /** The table's box (its .table-wrap): content wider than the box scrolls sideways. */
  scrollWidth: number;
  clientWidth: number;
  panelWidth: number;
}

/**
 * Every shown body cell of the table `selector` as a reader meets it, and the table box's widths;
 * read again for up to 5 s while it scrolls sideways (it lays out again a frame or two after the
 * panel's width changed).
 */
export async function readTable(frame: FrameLocator, selector: string): Promise<ReadTable> {
  const deadline = Date.now() + 5_000;
  let read = await readTableOnce(frame, selector);
  while (read.scrollWidth > read.clientWidth && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    read = await readTableOnce(frame, selector);
  }
  return read;
}

async function readTableOnce(frame: FrameLocator, selector: string): Promise<ReadTable> {
  return frame
    .locator(selector)
    .first()
    .evaluate((node) => {
      type Cell = PageElement & { dataset: Record<string, string>; innerText: string };
      const table = node as unknown as PageElement;
      const view = table.ownerDocument.defaultView;
      const wrap = table.closest('.table-wrap') ?? table;
      const cells = [...table.querySelectorAll('tbody td')].flatMap((el) => {
        const cell = el as Cell;
        if (cell.getClientRects().length === 0) return [];
        const box = cell.getBoundingClientRect();
        return [
          {
            data: { ...cell.dataset },
            before: view.getComputedStyle(cell, '::before').content,
            text: cell.innerText.trim(),
            after: view.getComputedStyle(cell, '::after').content,
            left: box.left,
            right: box.right,
            width: box.width,
          },
        ];
      });
      return {
        cells,
        scrollWidth: wrap.scrollWidth,
        clientWidth: wrap.clientWidth,
        panelWidth: table.ownerDocument.documentElement.clientWidth,
      };
    });
}

/**
 * Makes the window narrower (or wider) until `panel`, alone in the editor area, is about `px` wide:
 * the width the sidebar open beside a split editor leaves it. Returns its width.
 */
export async function narrowPanelTo(page: Page, panel: Locator, px: number): Promise<number> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const box = await panel.boundingBox();
    const viewport = page.viewportSize();
    if (!box || !viewport) throw new Error('no panel on screen');
    if (Math.abs(box.width - px) <= 4) return box.width;
    await page.setViewportSize({
      width: Math.round(viewport.width - (box.width - px)),
      height: viewport.height,
    });
    // The workbench lays out again a frame or two after the window changed.
    await page.waitForTimeout(400);
  }
  return (await panel.boundingBox())?.width ?? 0;
}

/**
 * Runs `body` with `panel` about `px` wide (asserted within 4 px, as narrowPanelTo leaves it), then
 * gives the window its width back whatever `body` did. `body` gets the panel's width.
 */
export async function atPanelWidth(
  page: Page,
  panel: Locator,
  px: number,
  body: (widthPx: number) => Promise<void>,
): Promise<void> {
  const wide = page.viewportSize();
  if (!wide) throw new Error('no viewport');
  try {
    const width = Math.round(await narrowPanelTo(page, panel, px));
    if (Math.abs(width - px) > 4) throw new Error(`the panel is ${width} px, not ~${px}`);
    await body(width);
  } finally {
    await page.setViewportSize(wide);
  }
}
