/**
 * Page helpers for the run side's e2e tests (tests/e2e/{iterate,cost,seeds,history,image-restore}):
 * the cost estimate, the run history, a node's run menu, figures read from <dt>/<dd> lists, and
 * dropping a file on the canvas through a DataTransfer, all by role and accessible name.
 */
import type { Locator, Page } from 'playwright-core';
import type { EditorPage } from '../e2e/pages/editor';
import type { NodeObject } from '../e2e/pages/node';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The value of `term` in a <dl> of `region` ("Images" → "3"). */
export function figure(region: Locator, term: string): Locator {
  return region.locator('dt', { hasText: new RegExp(`^${escape(term)}$`) }).locator('xpath=following-sibling::dd[1]');
}

/** The text of a figure once it is there. */
export async function figureText(region: Locator, term: string): Promise<string> {
  return ((await figure(region, term).textContent()) ?? '').trim();
}

/** The cost estimate in the run panel. */
export function estimate(editor: EditorPage): Locator {
  return editor.runPanel.getByRole('region', { name: 'Cost estimate' });
}

/** Waits for an estimate of the graph as it is now (not one still being worked out). */
export async function settledEstimate(editor: EditorPage): Promise<Locator> {
  const region = estimate(editor);
  await region.and(editor.page.locator('[aria-busy="false"]')).waitFor();
  return region;
}

/** The session's totals in the run panel. */
export function sessionTotals(editor: EditorPage): Locator {
  return editor.runPanel.getByRole('region', { name: 'This session' });
}

export function runCount(editor: EditorPage): Locator {
  return editor.runPanel.getByRole('spinbutton', { name: 'Number of runs' });
}

/** The run history panel. */
export function history(editor: EditorPage): Locator {
  return editor.page.getByRole('region', { name: 'Run history' });
}

/** Opens the run history (closed on a fresh profile; the panel loads when first opened). */
export async function openHistory(editor: EditorPage): Promise<Locator> {
  const toggle = history(editor).getByRole('button', { name: 'History', exact: true });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  return history(editor);
}

/** History entries ("<node>, image 1 of 2, seed 1234, <time>"), newest first. */
export function historyEntries(editor: EditorPage): Locator {
  return history(editor).getByRole('article');
}

/** Chooses `item` ("Run to here", "Run from here") from the node's run menu in its title bar. */
export async function nodeRunMenu(node: NodeObject, item: string): Promise<void> {
  await node.root.getByRole('button', { name: `Run options for ${node.title}` }).click();
  await node.page.getByRole('menu', { name: `Run ${node.title}` }).getByRole('menuitem', { name: item }).click();
}

/**
 * Does `action` (a click, a key) and waits for the run it starts, and the rest of its batch, to
 * end; returns the last run's heading ("Run finished"…). A run too quick to be seen running is
 * still told apart from the one before by its id.
 */
export async function runAndWait(editor: EditorPage, action: () => Promise<void>, timeout = 60_000): Promise<string> {
  const before = (await editor.lastRun.count()) > 0 ? await editor.lastRun.getAttribute('data-run-id') : null;
  await action();
  const newer = editor.page.locator(`[aria-label="Last run"]:not([data-run-id="${before ?? ''}"])`);
  await newer.waitFor({ timeout });
  await editor.runButton.and(editor.page.locator(':enabled')).waitFor({ timeout });
  return (await editor.lastRun.getByRole('heading').textContent()) ?? '';
}

/**
 * Drops `bytes` as a file named `name` on the empty canvas at (x, y) from its top-left corner,
 * through a DataTransfer, as a file dragged from the desktop arrives.
 */
export async function dropFile(page: Page, bytes: Uint8Array, name: string, type: string, at = { x: 200, y: 200 }): Promise<void> {
  const b64 = Buffer.from(bytes).toString('base64');
  const transfer = await page.evaluateHandle(({ b64, name, type }) => {
    const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([data], name, { type }));
    return dt;
  }, { b64, name, type });
  const pane = page.locator('.react-flow__pane');
  const box = await pane.boundingBox();
  if (!box) throw new Error('the canvas is not on screen');
  const point = { clientX: box.x + at.x, clientY: box.y + at.y };
  await pane.dispatchEvent('dragover', { dataTransfer: transfer, ...point });
  await pane.dispatchEvent('drop', { dataTransfer: transfer, ...point });
  await transfer.dispose();
}

/** Records every text the batch progress shows while a batch runs (fast runs are missed by polling). */
export async function watchBatchProgress(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __batch: string[] }).__batch = seen;
    const record = () => {
      const text = document.querySelector('[aria-label="Batch progress"]')?.textContent?.trim() ?? '';
      if (text !== '' && text !== seen.at(-1)) seen.push(text);
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { __batch: string[] }).__batch);
}
