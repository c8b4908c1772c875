/**
 * Workbench moves this test needs (palette, quick input, notifications, the panel's frame). Kept
 * beside the test until the shared harness offers them (test/e2e/harness/workbench.ts).
 */
import type { FrameLocator, Page } from 'playwright-core';

const QUICK_INPUT = '.quick-input-widget';

/**
 * F1, type the command, click its row (not Enter: the highlighted row may be a recently used or
 * fuzzier match). The palette lists a snapshot of commands, so retry until the command shows.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // Keys pressed while a webview has focus go to its iframe; give focus back to the workbench.
    await page.evaluate(() => {
      // Runs in the page; typed without the DOM library, which the Node side of the tests does not load.
      const page = globalThis as { document?: { activeElement?: { blur?: () => void } | null } };
      page.document?.activeElement?.blur?.();
    });
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator(`${QUICK_INPUT} input`);
    try {
      await input.waitFor({ state: 'visible', timeout: 3_000 });
      await input.fill(`>${title}`, { timeout: 3_000 });
      const row = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: title });
      await row.first().waitFor({ timeout: 2_000 });
      await row.first().click();
      return;
    } catch {
      // Not registered yet (extension still activating) or the palette lost focus: try again.
    }
  }
  throw new Error(`command "${title}" did not appear in the palette within ${timeoutMs} ms`);
}

export async function waitForQuickInputTitle(page: Page, text: string, timeoutMs = 15_000): Promise<void> {
  await page
    .locator(`${QUICK_INPUT} .quick-input-title`, { hasText: text })
    .waitFor({ state: 'visible', timeout: timeoutMs });
}

/** Palette -> "Probe database latency", accepting the targets and kinds the pickers offer (Enter twice). */
export async function probeWithDefaults(page: Page): Promise<void> {
  await runCommand(page, 'Probe database latency');
  await waitForQuickInputTitle(page, 'targets');
  await page.keyboard.press('Enter');
  await waitForQuickInputTitle(page, 'probe kinds');
  await page.keyboard.press('Enter');
}

/** Types into the open input box (or quick pick filter) and presses Enter. */
export async function answerInput(page: Page, text: string): Promise<void> {
  const input = page.locator(`${QUICK_INPUT} input`).first();
  await input.fill(text);
  // An input box validates in the extension host, one round trip per change, and ignores Enter while
  // the last answer it has is an error (the empty box's, before the typed text's answer arrives): on a
  // busy machine Enter would be dropped. Wait for the error to clear first; text that stays invalid
  // is pressed anyway after the wait, as a user would.
  await page
    .locator(`${QUICK_INPUT} .monaco-inputbox.error`)
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => undefined);
  // Pressed on the box itself (focused first), not on whatever has the page's focus: a notification
  // closing late on a busy machine hands the focus back to the workbench, and Enter would go there.
  await input.press('Enter');
}

/** Filters a quick pick to the item labelled `label` and accepts it. */
export async function pickInQuickInput(page: Page, label: string): Promise<void> {
  const input = page.locator(`${QUICK_INPUT} input`).first();
  await input.fill(label);
  const first = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`).first();
  await first
    .locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) })
    .waitFor({ timeout: 5_000 });
  await page.keyboard.press('Enter');
}

export async function waitForNotification(page: Page, text: string, timeoutMs = 20_000): Promise<void> {
  await page
    .locator('.notification-toast', { hasText: text })
    .first()
    .waitFor({ state: 'visible', timeout: timeoutMs });
}

export async function closeAllEditors(page: Page): Promise<void> {
  await runCommand(page, 'View: Close All Editors');
}

/** The content frame of an extension's webview panel (two iframes deep). */
export function webviewFrame(page: Page, options: { extensionId: string }): FrameLocator {
  return page
    .frameLocator(`iframe.webview.ready[src*="extensionId=${options.extensionId}"]`)
    .frameLocator('iframe#active-frame');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Accepts VS Code's simple file dialog (what code-server shows for save dialogs) with its default
 * path, once the dialog has filled it in; returns that path. (Typing a path races the dialog's own
 * completion, which may put the default back or append to it.)
 */
export async function acceptFileDialog(page: Page, timeoutMs = 10_000): Promise<string> {
  const input = page.locator(`${QUICK_INPUT} input`).first();
  const deadline = Date.now() + timeoutMs;
  let value = '';
  while (Date.now() < deadline) {
    value = await input.inputValue();
    if (/\/[^/]+\.[a-z]+$/i.test(value)) {
      await page.keyboard.press('Enter');
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the file dialog did not show a default path (last value: "${value}")`);
}

/** Clicks a button of the workbench's modal dialog (showWarningMessage with `modal: true`). */
export async function answerDialog(
  page: Page,
  text: string,
  button: string,
  timeoutMs = 15_000,
): Promise<void> {
  const dialog = page.locator('.monaco-dialog-box', { hasText: text });
  await dialog.waitFor({ state: 'visible', timeout: timeoutMs });
  await dialog.locator('.dialog-buttons .monaco-button', { hasText: button }).first().click();
  await dialog.waitFor({ state: 'hidden', timeout: timeoutMs });
}

/** Ticks or unticks a row of an open multi-select quick pick (a click on the row toggles its box). */
export async function toggleQuickPickRow(page: Page, text: string): Promise<void> {
  await page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: text }).first().click();
}

/**
 * The text of the notification containing `text`, as a toast or, once VS Code has moved it out of
 * sight (an information toast hides after about 15 s; none shows while the center is open), in the
 * notification center. For a message that follows slow work: a toast that came and went while the
 * step waited is still what the user was told.
 */
export async function notificationText(page: Page, text: string, timeoutMs = 20_000): Promise<string> {
  const toast = page.locator('.notification-toast', { hasText: text }).first();
  try {
    await toast.waitFor({ state: 'visible', timeout: timeoutMs });
    return await toast.innerText();
  } catch (error) {
    await runCommand(page, 'Notifications: Show Notifications');
    const row = page.locator('.notifications-center .monaco-list-row', { hasText: text }).first();
    const listed = await row.waitFor({ state: 'visible', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (!listed) throw error;
    const shown = await row.innerText();
    await page.keyboard.press('Escape'); // closes the center
    return shown;
  }
}

/** Clicks a button of the notification toast that holds `text`. */
export async function clickNotificationButton(
  page: Page,
  text: string | RegExp,
  button: string,
  timeoutMs = 20_000,
): Promise<void> {
  const toast = page.locator('.notification-toast', { hasText: text }).first();
  await toast.waitFor({ state: 'visible', timeout: timeoutMs });
  await toast.hover();
  await toast.locator('.monaco-button', { hasText: button }).first().click();
}

/**
 * Opens `fileName` from the folder VS Code's simple file dialog (code-server's open dialog) shows:
 * waits for the dialog to fill in its folder, then clicks the file's row, which accepts it. (Typing
 * the path races the dialog's own completion, as in acceptFileDialog.) Returns the dialog's folder.
 */
export async function openFileInDialog(
  page: Page,
  dialogTitle: string,
  fileName: string,
  timeoutMs = 10_000,
): Promise<string> {
  const input = page.locator(`${QUICK_INPUT} input`).first();
  const title = page.locator(`${QUICK_INPUT} .quick-input-title`, { hasText: dialogTitle });
  const row = page
    .locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`)
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(fileName)}$`) }) });
  await row.first().waitFor({ timeout: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  let value = '';
  while (Date.now() < deadline) {
    value = await input.inputValue();
    if (value.endsWith('/')) {
      await row.first().click();
      await title.waitFor({ state: 'hidden', timeout: timeoutMs });
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the file dialog did not show its folder (last value: "${value}")`);
}

/**
 * Opens `file` of the workspace through Quick Open and waits for the editor to show `showing`.
 * Quick Open closes when the focus leaves it, and a panel just closed (or a notification just shown)
 * can take the focus a moment later: the row was found, then hidden before the click (seen once in 5
 * runs on a quiet host). The file is what the step is for, so it asks again, 3 times at most; a file
 * that never opens still fails.
 */
export async function goToFile(page: Page, file: string, showing?: string): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    const input = page.locator(`${QUICK_INPUT} input`).first();
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(file);
    const row = page.locator(`${QUICK_INPUT} .quick-input-list .monaco-list-row`, { hasText: file }).first();
    // A fresh workspace's file search can take a while on a busy host (seen at 10 s and more).
    const found = await row.waitFor({ timeout: 30_000 }).then(
      () => true,
      (error: unknown) => {
        if (attempt === 3) throw error;
        return false;
      },
    );
    if (!found) {
      console.log(`Quick Open listed no ${file} in 30 s (attempt ${attempt}): asking again`);
      continue;
    }
    // The row itself, not Enter: until the list has filtered, Enter opens the recently opened file
    // at its top (seen: checks.ts opened when queries.ts was asked for).
    const clicked = await row.click({ timeout: 5_000 }).then(
      () => true,
      (error: unknown) => {
        if (attempt === 3) throw error;
        console.log(`Quick Open closed before ${file} was clicked (attempt ${attempt}): asking again`);
        return false;
      },
    );
    if (clicked) break;
  }
  const editor = page.locator('.monaco-editor .view-lines', showing ? { hasText: showing } : {}).first();
  await editor.waitFor({ timeout: 30_000 });
}
