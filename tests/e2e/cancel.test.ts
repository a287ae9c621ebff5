import { describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import type { EditorPage } from './pages/editor';

const session = editorSession();

/** Engines slow enough to catch a run in the middle: about 3 s of chat, 6 s per image. */
const SLOW = { ATELIER_LOCAL_TOKEN_MS: '70', ATELIER_LOCAL_STEP_MS: '200' };

async function slowEditor(): Promise<EditorPage> {
  const server = await session.server(SLOW);
  const editor = await session.open({ baseUrl: server.url });
  await editor.openExample('Chat to image');
  await editor.fitView();
  return editor;
}

describe('cancelling a run', () => {
  it('stops mid-stream with the Cancel button, keeps the text received so far, and the page stays responsive meanwhile', async () => {
    const editor = await slowEditor();
    const writer = editor.node('Prompt writer');
    const draw = editor.node('Draw it (SDXL)');

    await editor.run();
    await expect.poll(() => writer.phase()).toBe('running');
    await expect.poll(async () => ((await writer.streamedText.textContent()) ?? '').length, { timeout: 10_000 }).toBeGreaterThan(10);
    expect(await draw.phase()).toBe('queued');
    expect(await editor.runButton.isDisabled()).toBe(true);

    // Editing while the run goes on: the page answers at once (the run is in the worker).
    const subject = editor.node('Subject').field('Text');
    await subject.fill('a red kite over the dunes');
    expect(await subject.inputValue()).toBe('a red kite over the dunes');
    // The elapsed time keeps counting on the running node.
    const first = Number(/([\d.]+) s/.exec((await writer.status.textContent()) ?? '')?.[1]);
    await expect.poll(async () => Number(/([\d.]+) s/.exec((await writer.status.textContent()) ?? '')?.[1])).toBeGreaterThan(first);

    await editor.cancelButton.click();

    await expect.poll(() => writer.phase()).toBe('cancelled');
    expect(await draw.phase()).toBe('cancelled');
    expect(await editor.node('Preview').phase()).toBe('cancelled');
    const kept = (await writer.streamedText.textContent()) ?? '';
    expect(kept.length).toBeGreaterThan(10);
    expect(await writer.streamedText.getAttribute('aria-label')).toBe('Text received before the node stopped');
    expect(await editor.lastRun.getByRole('heading').textContent()).toBe('Run cancelled');
    expect(await editor.runButton.isDisabled()).toBe(false);
    expect(await editor.cancelButton.isDisabled()).toBe(true);
    // No image arrived, and nothing keeps running in the background.
    await editor.page.waitForTimeout(500);
    expect(await draw.images.count()).toBe(0);
    expect(await writer.phase()).toBe('cancelled');
  });

  it('stops an image in progress with Escape', async () => {
    const editor = await slowEditor();
    const draw = editor.node('Draw it (SDXL)');
    // Three tokens: the chat is over at once and the image node starts.
    const writer = editor.node('Prompt writer');
    await writer.root.getByText('More options').click();
    await writer.field('Max tokens').fill('3');
    await editor.clickCanvas();

    await editor.page.keyboard.press('ControlOrMeta+Enter');
    await expect.poll(() => draw.phase(), { timeout: 15_000 }).toBe('running');
    await editor.page.keyboard.press('Escape');

    await expect.poll(() => draw.phase()).toBe('cancelled');
    expect(await writer.phase()).toBe('done');
    expect(await editor.lastRun.getByRole('heading').textContent()).toBe('Run cancelled');
    expect(await draw.images.count()).toBe(0);
  });
});
