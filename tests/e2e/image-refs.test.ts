/**
 * A picture chosen in an Image loader is kept once, in the browser's asset store: the document
 * and its autosave hold its reference, the run reaches the Preview, a reload finds the picture
 * again, and Save writes it back as the very bytes chosen.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Workflow } from '../../workflow/schema';
import { workflowFile } from './chain-file';
import { editorSession } from './fixtures';
import { downloadBytes } from './pages/editor';
import { readIndexedDb } from './pages/idb';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-image-refs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const chain = workflowFile('Picture by reference', [
  { id: 'photo', type: 'image-loader', title: 'Photo', position: { x: 0, y: 0 }, params: {} },
  { id: 'restyle', type: 'image-to-image', title: 'Restyle', position: { x: 380, y: 0 }, params: { engine: 'sd', prompt: 'a watercolour', seed: 4, steps: 2 } },
  { id: 'show', type: 'preview', title: 'Show', position: { x: 760, y: 0 }, params: {} },
], [
  { id: 'e1', source: { node: 'photo', port: 'image' }, target: { node: 'restyle', port: 'image' } },
  { id: 'e2', source: { node: 'restyle', port: 'image' }, target: { node: 'show', port: 'value' } },
]);

describe('a picture by reference', () => {
  it('is chosen into the asset store, autosaved as its reference, runs to the Preview, survives a reload and saves as chosen', async () => {
    const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3060c0' } }).png().toBuffer();
    const hash = createHash('sha256').update(picture).digest('hex');
    const picturePath = join(dir, 'photo.png');
    writeFileSync(picturePath, picture);
    const editor = await session.open();
    const { page } = editor;
    await editor.openWorkflow(chain, join(dir, 'chain.json'));
    const photo = editor.node('Photo');
    const chooser = page.waitForEvent('filechooser');
    await photo.root.getByRole('button', { name: 'Choose image…' }).click();
    await (await chooser).setFiles(picturePath);
    await photo.root.getByRole('img', { name: 'Loaded image photo.png' }).waitFor();
    await photo.root.getByText(`photo.png · 64×48, ${picture.length} bytes`).waitFor();

    // The autosave holds the reference, not the picture.
    const autosaved = () => readIndexedDb(page, 'atelier', 'autosave', 'current');
    await expect.poll(autosaved).toContain(`asset:sha256:${hash}`);
    expect(await autosaved()).not.toContain(picture.toString('base64').slice(0, 40));

    expect(await editor.runToEnd()).toBe('Run finished');
    await expect.poll(() => editor.node('Show').images.count()).toBe(1);

    // After a reload the picture comes back from the asset store, and Save writes its base64.
    await page.reload();
    await editor.pane.waitFor();
    await editor.node('Photo').root.getByRole('img', { name: 'Loaded image photo.png' }).waitFor();
    const saved = JSON.parse((await downloadBytes(await editor.save())).toString('utf8')) as Workflow;
    const image = saved.nodes.find((n) => n.id === 'photo')?.params.image as { b64: string; width: number; height: number };
    expect(image.b64).toBe(readFileSync(picturePath).toString('base64'));
    expect([image.width, image.height]).toEqual([64, 48]);
  });
});
