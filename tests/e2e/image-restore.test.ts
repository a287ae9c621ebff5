import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { embedWorkflow, extractWorkflow, readImageManifest } from '../../workflow/embed';
import { dropFile } from '../run/run-page';
import { editorSession } from './fixtures';
import { downloadBytes, type EditorPage } from './pages/editor';

const session = editorSession();

/** Runs the Chat to image example and downloads its first image from the viewer. */
async function downloadFirstImage(editor: EditorPage): Promise<{ bytes: Buffer; name: string }> {
  expect(await editor.runToEnd()).toBe('Run finished');
  const draw = editor.node('Draw it (SDXL)');
  await draw.images.first().click();
  const viewer = editor.page.getByRole('dialog', { name: 'Draw it (SDXL): image 1 of 2' });
  const download = editor.page.waitForEvent('download');
  await viewer.getByRole('link', { name: 'Download' }).click();
  const file = await download;
  const bytes = await downloadBytes(file);
  await editor.page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  return { bytes, name: file.suggestedFilename() };
}

describe('images that carry their workflow', () => {
  it('a downloaded image holds the workflow as it ran and its manifest, never an endpoint; dropped on the canvas it restores the workflow', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const { bytes, name } = await downloadFirstImage(editor);

    expect(name).toBe('chat-to-image-draw-it-sdxl-1-seed-1234.jpg');
    const content = extractWorkflow(bytes);
    expect(JSON.parse(content!.workflow!)).toMatchObject({ metadata: { title: 'Chat to image' } });
    const manifest = readImageManifest(content!.manifest);
    expect(manifest).toMatchObject({ node: { id: 'draw', type: 'text-to-image', typeVersion: 1 }, engine: 'sdxl', seed: 1234 });
    expect(manifest!.requests[0]).toMatchObject({ api: 'image', engine: 'sdxl', request: { seed: 1234, num_images: 2 } });
    const text = bytes.toString('latin1');
    expect(text).not.toContain(new URL(editor.baseUrl).host);
    expect(text).not.toMatch(/https?:\/\//);
    expect(text).not.toMatch(/bearer/i);

    await editor.newWorkflow();
    await dropFile(editor.page, bytes, name, 'image/jpeg');
    // Its workflow has an app: it opens in App view.
    await editor.appView.waitFor();
    await editor.showGraph();
    await expect.poll(() => editor.nodes.count()).toBe(4);
    expect(await editor.workflowTitle.inputValue()).toBe('Chat to image');
    await editor.page.getByText('Opened “Chat to image” from \'chat-to-image-draw-it-sdxl-1-seed-1234.jpg\' (made by \'Draw it (SDXL)\' with seed 1234)', { exact: false }).waitFor();
    // One undo step brings back what was there.
    await editor.undo();
    await expect.poll(() => editor.nodes.count()).toBe(0);
  });

  it('an image without a workflow becomes an Image loader; a damaged or refused one says why and the graph stays', async () => {
    const editor = await session.open();
    await editor.newWorkflow();
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } }).png().toBuffer();

    await dropFile(editor.page, png, 'plain.png', 'image/png');
    await editor.node('Image loader').root.waitFor();
    await editor.page.getByText('\'plain.png\' carries no Atelier workflow: it was added as an Image loader').waitFor();
    expect(await editor.nodes.count()).toBe(1);

    // A workflow whose embedded bytes were damaged on the way.
    const embedded = Buffer.from(embedWorkflow(png, 'image/png', { workflow: '{"format":"atelier.workflow","version":1}' }));
    const at = embedded.indexOf('atelier-workflow');
    embedded[at + 30] = embedded[at + 30]! ^ 0xff;
    await dropFile(editor.page, embedded, 'damaged.png', 'image/png');
    await editor.page.getByText(/^'damaged\.png' carries a workflow that cannot be read: .*checksum/).waitFor();
    expect(await editor.nodes.count()).toBe(1);

    // A workflow that is whole but not one Atelier can open: the loader's problems, listed.
    const refused = embedWorkflow(png, 'image/png', { workflow: '{"format":"atelier.workflow","version":1,"nodes":[]}' });
    await dropFile(editor.page, refused, 'refused.png', 'image/png');
    await editor.problemsDialog.getByRole('heading', { name: 'The workflow in \'refused.png\' was not opened' }).waitFor();
    expect(await editor.problemsDialog.textContent()).toContain('metadata');
    await editor.problemsDialog.getByRole('button', { name: 'OK' }).click();
    expect(await editor.nodes.count()).toBe(1);
  });

  it('downloading a workflow with a credential in it asks first, and can remove it', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const key = `sk-${'a1B2c3D4e5'.repeat(5)}`;
    // Somewhere it is never sent, so the run goes as usual: only the shared workflow would carry it.
    await editor.node('Preview').field('File name').fill(key);
    await editor.node('Preview').field('File name').blur();
    expect(await editor.runToEnd()).toBe('Run finished');
    const draw = editor.node('Draw it (SDXL)');
    const download = editor.page.waitForEvent('download');
    await draw.results.getByRole('button', { name: 'Download image 1 of Draw it (SDXL)' }).click();

    const dialog = editor.page.getByRole('dialog', { name: 'Credential-like text in this workflow' });
    await dialog.waitFor();
    expect(await dialog.getByRole('listitem').first().textContent()).toMatch(/^File name of “Preview”: .*sk-…\(53 chars\)/);
    await dialog.getByRole('button', { name: 'Download with these removed' }).click();
    const bytes = await downloadBytes(await download);
    const content = extractWorkflow(bytes);
    expect(JSON.parse(content!.workflow!).nodes.find((n: { id: string }) => n.id === 'preview').params.filename).toBeUndefined();
    expect(bytes.toString('latin1')).not.toContain(key);
  });
});
