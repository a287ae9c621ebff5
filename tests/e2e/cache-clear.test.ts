import { describe, expect, it } from 'vitest';
import { figureText, runAndWait, settledEstimate } from '../run/run-page';
import { editorSession } from './fixtures';
import { SettingsDialog } from './pages/settings';

const session = editorSession();

describe('clearing the cached results', () => {
  it('Settings → Clear cached results, once confirmed, empties the cache: the estimate counts nothing cached and the next run calls the APIs again', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    expect(await runAndWait(editor, () => editor.run())).toBe('Run finished');
    expect(await figureText(editor.lastRun, 'Calls made')).toBe('2');

    // The results outlive a reload: the estimate of the same graph counts them as free.
    await editor.page.reload();
    await editor.pane.waitFor();
    await editor.node('Draw it (SDXL)').root.waitFor();
    let estimate = await settledEstimate(editor);
    expect(await figureText(estimate, 'Cached (free)')).toBe('4 nodes (2 calls saved)');
    expect(await figureText(estimate, 'API calls')).toBe('0');

    const settings = await SettingsDialog.open(editor.page);
    expect(await settings.cacheHolds()).toMatch(/^4 results · \d+(\.\d)? (kB|MB) of 512\.0 MB, kept across reloads\.$/);

    // Keep: nothing is cleared, and the focus returns to the button that asked.
    await settings.clearCacheButton.click();
    await expect.poll(() => settings.confirmClear.getByRole('button', { name: 'Keep' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await settings.confirmClear.getByRole('button', { name: 'Keep' }).click();
    await expect.poll(() => settings.clearCacheButton.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await settings.cacheHolds()).toMatch(/^4 results · /);

    await settings.clearCacheButton.click();
    await settings.confirmClear.getByRole('button', { name: 'Clear', exact: true }).click();
    await editor.page.getByRole('status').getByText(/^Cleared 4 cached results \(\d+(\.\d)? (kB|MB)\): the next run asks the APIs again$/).waitFor();
    await expect.poll(() => settings.cacheHolds()).toMatch(/^0 results · 0 B of 512\.0 MB/);
    expect(await settings.clearCacheButton.isDisabled()).toBe(true);
    await settings.close();

    // The estimate asks again without any edit: every node costs its calls once more.
    await expect.poll(async () => figureText(await settledEstimate(editor), 'Cached (free)')).toBe('0 nodes');
    estimate = await settledEstimate(editor);
    expect(await figureText(estimate, 'API calls')).toBe('2 (1 chat call, 1 image call)');

    expect(await runAndWait(editor, () => editor.run())).toBe('Run finished');
    expect(await figureText(editor.lastRun, 'Calls made')).toBe('2');
    expect(await editor.node('Draw it (SDXL)').phase()).toBe('done');
    expect(await editor.node('Prompt writer').phase()).toBe('done');
  });
});
