import { describe, expect, it } from 'vitest';
import { history, historyEntries, openHistory, runAndWait, runCount, watchBatchProgress } from '../run/run-page';
import { editorSession } from './fixtures';

const session = editorSession();

describe('run history', () => {
  it('keeps every output with its node, parameters and seed, reopens a run\'s workflow as one undo step, survives a reload and clears', async () => {
    const editor = await session.open();
    expect(await history(editor).getByRole('article').count(), 'closed on a fresh profile').toBe(0);
    await openHistory(editor);
    await editor.openExample('Chat to image');
    expect(await editor.runToEnd()).toBe('Run finished');

    const entries = historyEntries(editor);
    await expect.poll(() => entries.count()).toBe(3);
    const names = await entries.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
    expect(names.map((n) => n.replace(/, [^,]*$/, '')).sort()).toEqual([
      'Draw it (SDXL), image 1 of 2, seed 1234',
      'Draw it (SDXL), image 2 of 2, seed 1235',
      'Prompt writer, text',
    ]);
    const image = history(editor).getByRole('article', { name: /^Draw it \(SDXL\), image 1 of 2/ });
    await image.getByText('Parameters').click();
    expect(await image.locator('dt', { hasText: /^seed$/ }).first().locator('xpath=following-sibling::dd[1]').textContent()).toBe('1234');
    expect(await image.getByText('Sent to the API (sdxl)').count()).toBe(1);

    await editor.newWorkflow();
    expect(await editor.nodes.count()).toBe(0);
    await image.getByRole('button', { name: 'Open this run\'s workflow' }).click();
    await expect.poll(() => editor.nodes.count()).toBe(4);
    expect(await editor.workflowTitle.inputValue()).toBe('Chat to image');
    expect(await editor.node('Draw it (SDXL)').field('Seed').inputValue()).toBe('1234');
    await editor.undo();
    await expect.poll(() => editor.nodes.count()).toBe(0);

    await editor.page.reload();
    await editor.pane.waitFor();
    // Left open, it is open again after the reload.
    await expect.poll(() => historyEntries(editor).count()).toBe(3);

    await history(editor).getByRole('button', { name: 'Clear…' }).click();
    await history(editor).getByRole('button', { name: 'Clear history' }).click();
    await expect.poll(() => historyEntries(editor).count()).toBe(0);
    expect(await history(editor).getByText(/^0 outputs/).count()).toBe(1);
  });

  it('a batch of 3 runs makes 3 entries, each with the seed its run used, and shows its progress', async () => {
    const editor = await session.open();
    await openHistory(editor);
    await editor.newWorkflow();
    const draw = await editor.addNode('Text to image', { x: 200, y: 120 });
    await draw.field('Prompt').fill('a paper boat on a pond');
    await draw.root.getByLabel('Random', { exact: true }).uncheck();
    await draw.field('Seed').fill('500');
    await draw.moreOptions();
    await draw.field('After each run').selectOption('increment');
    await runCount(editor).fill('3');
    const progress = await watchBatchProgress(editor.page);

    expect(await runAndWait(editor, () => editor.run())).toBe('Run finished');
    await expect.poll(() => historyEntries(editor).count()).toBe(3);
    const names = await historyEntries(editor).evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
    expect(names.map((n) => /seed (\d+)/.exec(n)?.[1])).toEqual(['502', '501', '500']);
    expect(await draw.field('Seed').inputValue()).toBe('503');
    expect(await progress()).toEqual(['1 / 3', '2 / 3', '3 / 3']);
    // The summary speaks of the whole batch as well as of its last run.
    expect(await editor.lastRun.locator('.run-summary__batch').textContent()).toMatch(/^Batch of 3 runs, 3 calls, 3 images \(3 price units\), \d+\.\d s in all\. The figures below are the last run's\.$/);
  });

  it('Cancel stops the run under way and the rest of the batch', async () => {
    // Slow images (about 6 s each), so the batch is caught in its first run.
    const server = await session.server({ ATELIER_LOCAL_STEP_MS: '200' });
    const editor = await session.open({ baseUrl: server.url });
    await openHistory(editor);
    await editor.newWorkflow();
    const draw = await editor.addNode('Text to image', { x: 200, y: 120 });
    await draw.field('Prompt').fill('a paper boat on a pond');
    await draw.moreOptions();
    await draw.field('After each run').selectOption('increment');
    await draw.root.getByLabel('Random', { exact: true }).uncheck();
    const seed = await draw.field('Seed').inputValue();
    await runCount(editor).fill('3');
    const progress = await watchBatchProgress(editor.page);

    await editor.run();
    await expect.poll(() => draw.phase()).toBe('running');
    await editor.cancelButton.click();
    await expect.poll(() => editor.lastRun.getByRole('heading').textContent()).toBe('Run cancelled');
    await editor.page.waitForTimeout(500);
    expect(await progress()).toEqual(['1 / 3']);
    expect(await editor.lastRun.locator('.run-summary__batch').textContent()).toMatch(/^Batch stopped after 0 of 3 runs, \d+ calls?, /);
    expect(await editor.runButton.isEnabled()).toBe(true);
    expect(await draw.phase()).toBe('cancelled');
    expect(await draw.field('Seed').inputValue()).toBe(seed);
    // The panel reads IndexedDB after a run ends: on a loaded machine its count may land late.
    await expect.poll(() => history(editor).getByText(/^0 outputs/).count(), { message: 'the open history says it holds nothing' }).toBe(1);
    expect(await historyEntries(editor).count()).toBe(0);
  });
});
