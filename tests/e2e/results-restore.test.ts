/**
 * Results that stay: after a reload each node shows its last result from the cache, marked as
 * restored, without a request to the engines; an edit takes back what it made stale.
 */
import { describe, expect, it } from 'vitest';
import { runAndWait } from '../run/run-page';
import { editorSession } from './fixtures';

const session = editorSession();

describe('results after a reload', () => {
  it('come back from the cache on every node, marked restored, with no call made; an edit takes back the stale ones', async () => {
    const editor = await session.open();
    const { page } = editor;
    const engineCalls: string[] = [];
    page.context().on('request', (request) => {
      if (request.method() === 'POST' && /\/local\/(image|text)\//.test(request.url())) engineCalls.push(request.url());
    });
    await editor.openExample('Chat to image');
    expect(await runAndWait(editor, () => editor.run())).toBe('Run finished');
    // The count sees the run's own calls (the chat, then the image).
    await expect.poll(() => engineCalls.length).toBe(2);
    const draw = editor.node('Draw it (SDXL)');
    await draw.images.first().waitFor();
    const picture = await draw.imageSha256();
    const previewed = await editor.node('Preview').images.count();
    expect(previewed).toBeGreaterThan(0);

    engineCalls.length = 0;
    await page.reload();
    await editor.pane.waitFor();
    await editor.fitView();
    const restored = (title: string) => editor.node(title).root.getByText(/^Restored from cache · made /);
    for (const title of ['Subject', 'Prompt writer', 'Draw it (SDXL)', 'Preview']) await restored(title).waitFor();
    expect(await draw.imageSha256()).toBe(picture);
    expect(await editor.node('Preview').images.count()).toBe(previewed);
    expect(await editor.node('Prompt writer').textResult.textContent()).not.toBe('');
    expect(engineCalls).toEqual([]);

    // A new subject: the prompt writer, the drawing and the preview would change; the restored
    // results there go, the subject's own new text is not the cached one either.
    await editor.node('Subject').field('Text').fill('a lighthouse in a storm');
    await editor.node('Subject').field('Text').blur();
    await expect.poll(() => draw.results.count()).toBe(0);
    await expect.poll(() => editor.node('Prompt writer').results.count()).toBe(0);
    await expect.poll(() => editor.node('Preview').results.count()).toBe(0);
    expect(engineCalls).toEqual([]);
  });
});
