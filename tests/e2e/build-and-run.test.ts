import { describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import { downloadBytes } from './pages/editor';
import { watchStream } from './pages/stream';

const session = editorSession();

describe('building and running a workflow', () => {
  it('chat → text to image, added from the palette and wired by dragging, runs on the local engines', async () => {
    // Tokens 25 ms apart (the shared server's 5 ms can all land within one frame on a loaded machine),
    // so that seeing the text arrive piece by piece is about the editor, not the machine's load.
    const server = await session.server({ ATELIER_LOCAL_TOKEN_MS: '25' });
    const editor = await session.open({ baseUrl: server.url });
    const starterZoom = await editor.zoom();
    await editor.newWorkflow();
    // A fresh canvas at 100%, not the zoom the starter workflow opened at.
    expect(starterZoom).toBeLessThan(0.95);
    await expect.poll(() => editor.zoom()).toBe(1);

    const chat = await editor.addNode('Chat prompt writer', { x: 120, y: 120 });
    const draw = await editor.addNode('Text to image', 'right-edge');
    await editor.fitView();
    await draw.takeFromInput('Prompt');
    await editor.connect(chat, 'Text', draw, 'Prompt');
    await expect.poll(() => editor.wires.count()).toBe(1);
    // The prompt now comes from the wire: the image node says so instead of offering the field.
    await expect.poll(() => draw.root.getByText('Chat prompt writer').count()).toBeGreaterThan(0);

    const stream = await watchStream(editor.page, 'Chat prompt writer');
    expect(await editor.runToEnd()).toBe('Run finished');

    // The text arrived piece by piece while the node ran, and the result is the whole of it.
    const seen = await stream.snapshots();
    expect(seen.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.startsWith(seen[i - 1]!)).toBe(true);
    const text = (await chat.textResult.textContent()) ?? '';
    expect(text.length).toBeGreaterThan(20);
    expect(seen.at(-1)!.trim()).toBe(text.trim());

    await expect.poll(() => chat.phase()).toBe('done');
    await expect.poll(() => draw.phase()).toBe('done');
    expect(await draw.status.textContent()).toMatch(/^Done in \d+\.\d s$/);
    await expect.poll(() => draw.images.count()).toBe(1);
    const img = draw.results.locator('img').first();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1024);
    // Shown from bytes the worker handed over, never from a base64 string.
    expect(await img.getAttribute('src')).toMatch(/^blob:/);

    const summary = editor.lastRun;
    expect(await summary.getByText('Calls made').locator('xpath=following-sibling::dd[1]').textContent()).toBe('2');
  });

  it('opens a result in the large viewer with its seed, downloads it under a telling name, and closes on Escape', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    expect(await editor.runToEnd()).toBe('Run finished');

    const draw = editor.node('Draw it (SDXL)');
    await editor.inspect(draw);
    await expect.poll(() => draw.images.count()).toBe(2);
    await draw.images.first().click();

    const viewer = editor.page.getByRole('dialog', { name: /^Draw it \(SDXL\): image \d of 2$/ });
    await editor.page.getByRole('dialog', { name: /image 1 of 2$/ }).waitFor();
    expect(await viewer.getByRole('textbox', { name: 'Seed' }).inputValue()).toBe('1234');
    await editor.page.keyboard.press('ArrowRight');
    await editor.page.getByRole('dialog', { name: /image 2 of 2$/ }).waitFor();
    expect(await viewer.getByRole('textbox', { name: 'Seed' }).inputValue()).toBe('1235');

    const download = editor.page.waitForEvent('download');
    await viewer.getByRole('link', { name: 'Download' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('chat-to-image-draw-it-sdxl-2-seed-1235.jpg');
    const bytes = await downloadBytes(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    await editor.page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    // Escape closed the viewer only: focus is back on the thumbnail that opened it.
    expect(await draw.images.first().evaluate((el) => el === document.activeElement)).toBe(true);
  });
});
