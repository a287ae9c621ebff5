/**
 * Two tabs of one browser on the same autosaved workflow: the second is told and chooses; no
 * tab's work is overwritten unseen. The tabs are two pages of one browser context, so they share
 * IndexedDB and BroadcastChannel as real tabs do.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import { EditorPage } from './pages/editor';

const session = editorSession();

/** Another tab in the same browser as `editor`, with its page errors collected. */
async function secondTab(editor: EditorPage): Promise<{ tab: EditorPage; errors: string[] }> {
  const page: Page = await editor.page.context().newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.stack ?? error.message));
  const tab = new EditorPage(page, editor.baseUrl);
  await tab.goto();
  return { tab, errors };
}

const banner = (editor: EditorPage, title: string) => editor.page.getByRole('alertdialog', { name: title });

/** The title of the work autosaved in `slot`, read from the page's IndexedDB. */
function autosavedTitle(editor: EditorPage, slot = 'current'): Promise<string> {
  return editor.page.evaluate((key) => new Promise<string>((resolve, reject) => {
    const open = indexedDB.open('atelier');
    open.onerror = () => reject(open.error ?? new Error('IndexedDB did not open'));
    open.onsuccess = () => {
      const get = open.result.transaction('autosave').objectStore('autosave').get(key);
      get.onerror = () => reject(get.error ?? new Error('no record'));
      get.onsuccess = () => resolve((get.result as { title?: string } | undefined)?.title ?? '');
    };
  }), slot);
}

/** Gives the autosave time to write (it writes within about a second of a change). */
const autosaved = (editor: EditorPage) => editor.page.waitForTimeout(1500);

describe('two tabs on one autosaved workflow', () => {
  it('the second tab is told; taking over tells the first, which can keep its work as a copy', async () => {
    const first = await session.open();
    await first.newWorkflow();
    await first.workflowTitle.fill('Shared work');
    await first.workflowTitle.press('Enter');
    await first.addNode('Text', { x: 200, y: 150 });
    await autosaved(first);

    const { tab: second, errors } = await secondTab(first);
    const told = banner(second, 'This workflow is open in another tab');
    await told.waitFor();
    await expect.poll(() => second.workflowTitle.inputValue()).toBe('Shared work');
    expect(await banner(first, 'This workflow is open in another tab').count()).toBe(0);

    // Until it chooses, what the second tab does is not autosaved over the first's work.
    await second.workflowTitle.fill('Second tab, undecided');
    await second.workflowTitle.press('Enter');
    await autosaved(second);
    expect(await autosavedTitle(first)).toBe('Shared work');
    expect(await first.page.getByRole('alertdialog').count()).toBe(0);

    await told.getByRole('button', { name: 'Take over' }).click();
    await told.waitFor({ state: 'detached' });
    const takenOver = banner(first, 'Another tab took over this workflow');
    await takenOver.waitFor();
    expect(await autosavedTitle(first)).toBe('Second tab, undecided');

    // The first tab keeps its own work, now as a copy autosaved apart.
    await takenOver.getByRole('button', { name: 'Open a copy' }).click();
    await takenOver.waitFor({ state: 'detached' });
    await expect.poll(() => first.workflowTitle.inputValue()).toBe('Shared work (copy)');
    await first.addNode('Preview / save', 'right-edge');
    await autosaved(first);
    expect(await second.page.getByRole('alertdialog').count()).toBe(0);
    expect(await second.workflowTitle.inputValue()).toBe('Second tab, undecided');

    // Each tab finds its own work after a reload.
    await first.page.reload();
    await first.pane.waitFor();
    await expect.poll(() => first.workflowTitle.inputValue()).toBe('Shared work (copy)');
    await expect.poll(() => first.nodes.count()).toBe(2);
    await second.page.reload();
    await second.pane.waitFor();
    await expect.poll(() => second.workflowTitle.inputValue()).toBe('Second tab, undecided');
    expect(errors).toEqual([]);
  });

  it('"Reload theirs" shows the other tab\'s latest work, which then follows it while it has no changes of its own', async () => {
    const first = await session.open();
    await first.newWorkflow();
    await first.workflowTitle.fill('Before');
    await first.workflowTitle.press('Enter');
    await autosaved(first);

    const { tab: second, errors } = await secondTab(first);
    const told = banner(second, 'This workflow is open in another tab');
    await told.waitFor();
    await first.addNode('Text', { x: 200, y: 150 });
    await first.workflowTitle.fill('After');
    await first.workflowTitle.press('Enter');
    await autosaved(first);

    await told.getByRole('button', { name: 'Reload theirs' }).click();
    await told.waitFor({ state: 'detached' });
    await expect.poll(() => second.workflowTitle.inputValue()).toBe('After');
    await expect.poll(() => second.nodes.count()).toBe(1);

    await first.workflowTitle.fill('Later still');
    await first.workflowTitle.press('Enter');
    // Once the first tab's autosave holds it, the second follows (no fixed time: the machine may be busy).
    await autosaved(first);
    await expect.poll(() => second.workflowTitle.inputValue(), { timeout: 20_000 }).toBe('Later still');
    expect(await second.page.getByRole('alertdialog').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
