/**
 * What the page says after a run, in a person's words: nodes by their titles and fields by their
 * labels, never by the ids and keys of the workflow file; and what a cancelled run used.
 */
import { describe, expect, it } from 'vitest';
import { figureText } from '../run/run-page';
import { editorSession } from './fixtures';

const session = editorSession();

describe('messages name nodes and fields as the canvas does', () => {
  it('a node skipped behind a bypassed one says which node by its title, and the bypassed one names its ports by label', async () => {
    const editor = await session.open();
    // The starter's Text to image has the id 'text-to-image', shown nowhere on the page.
    await editor.node('Text to image').root.getByRole('button', { name: 'Bypass Text to image', exact: true }).click();
    expect(await editor.runToEnd()).toBe('Run finished');

    const restyle = editor.node('Image to image');
    await expect.poll(() => restyle.phase()).toBe('skipped');
    expect(await restyle.runStatus.textContent()).toBe("Skippedbypassed 'Text to image' has no image input to pass throughShow 'Text to image'");
    expect(await editor.node('Text to image').runStatus.textContent())
      .toBe("BypassedImage: nothing to pass on (bypassed 'Text to image' has no image input to pass through); "
        + "Images: nothing to pass on (bypassed 'Text to image' has no images input to pass through)");
  });
});

describe('a chat answer cut at its token cap', () => {
  it('is used, and marked on its node and in the run summary', async () => {
    const editor = await session.open();
    const writer = editor.node('Chat prompt writer');
    await writer.moreOptions();
    await writer.field('Max tokens').fill('3');
    await editor.clickCanvas();
    expect(await editor.runToEnd()).toBe('Run finished');
    await expect.poll(() => writer.phase()).toBe('done');
    expect(await writer.runStatus.textContent()).toMatch(/^Done in .*stopped at max_tokens: 3$/);
    expect(await editor.lastRun.textContent()).toMatch(/stopped at max_tokens: 3/);
  });
});

describe('a cancelled run', () => {
  it('counts the chat tokens that had streamed before the cancel, as an estimate', async () => {
    const server = await session.server({ ATELIER_LOCAL_TOKEN_MS: '70' });
    const editor = await session.open({ baseUrl: server.url });
    const writer = editor.node('Chat prompt writer');
    await editor.run();
    await expect.poll(async () => ((await writer.streamedText.textContent()) ?? '').length, { timeout: 10_000 }).toBeGreaterThan(20);
    await editor.cancelButton.click();
    await editor.lastRun.waitFor();
    expect(await editor.lastRun.getByRole('heading').textContent()).toBe('Run cancelled');
    expect(await figureText(editor.lastRun, 'Chat tokens')).toMatch(/^≈ \d+ \(estimated\)$/);
  });
});
