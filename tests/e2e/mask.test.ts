/**
 * The inpaint mask painter in Chromium: paint a mask on the node, keep the painter's undo apart
 * from the graph's, save it as one graph edit, run on the local engines, and find the picture
 * changed where painted and nowhere else; the mask is saved in the workflow file as the PNG the
 * API expects (white repaints, black keeps).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Workflow } from '../../workflow/schema';
import { workflowFile, writeChainFile } from './chain-file';
import { editorSession } from './fixtures';
import { downloadBytes } from './pages/editor';
import { readIndexedDb } from './pages/idb';
import { MaskPainterDialog } from './pages/mask-painter';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-mask-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SIZE = 512;
/** The stroke, as fractions of the painting area: a band across the left of the picture. */
const FROM = { x: 0.15, y: 0.5 };
const TO = { x: 0.45, y: 0.5 };

/** Text to image → inpaint → preview on SD 1.5 (512×512), with no mask yet. */
const chainFile = () => writeChainFile(dir, {
  title: 'Mask painting', file: 'mask-painting.json', draw: 'a green meadow under a pale sky',
  then: { id: 'fix', type: 'inpaint', title: 'Fix', prompt: 'a bright red kite' },
});

interface Region { left: number; top: number; width: number; height: number }

/** Mean absolute difference per channel (0..255) of two images inside each region, read in the page. */
function meanDiffs(page: Page, a: string, b: string, regions: Region[]): Promise<number[]> {
  return page.evaluate(async ({ a, b, regions }) => {
    const pixels = async (url: string) => {
      const bitmap = await createImageBitmap(await (await fetch(url)).blob());
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      return { width: bitmap.width, data: ctx.getImageData(0, 0, bitmap.width, bitmap.height).data };
    };
    const [pa, pb] = await Promise.all([pixels(a), pixels(b)]);
    return regions.map((r) => {
      let sum = 0;
      for (let y = r.top; y < r.top + r.height; y++) {
        for (let x = r.left; x < r.left + r.width; x++) {
          const i = (y * pa.width + x) * 4;
          sum += Math.abs(pa.data[i]! - pb.data[i]!) + Math.abs(pa.data[i + 1]! - pb.data[i + 1]!) + Math.abs(pa.data[i + 2]! - pb.data[i + 2]!);
        }
      }
      return sum / (3 * r.width * r.height);
    });
  }, { a, b, regions });
}

describe('the inpaint mask painter', () => {
  it('paints a mask with its own undo, invert and clear, saves it as one graph edit, and inpaints only where painted', async () => {
    const editor = await session.open();
    const { page } = editor;
    await editor.open(chainFile());
    await page.getByText('Opened “Mask painting”').waitFor();
    await editor.fitView();
    const fix = editor.node('Fix');
    await fix.root.getByText('No mask painted yet.').waitFor();
    // Without a mask the node says what it needs before anything is run, under the painter.
    const maskIssue = fix.root.locator('[data-field="mask_paint"] .field-issue');
    expect(await maskIssue.textContent()).toMatch(/^needs a mask: connect an image to the Mask input, or paint one/);
    expect(await fix.root.locator('.node-issues').getByText(/needs a mask/).count()).toBe(0);
    const graphUndo = page.getByRole('button', { name: 'Undo open workflow' });
    await graphUndo.waitFor();

    // Nothing has run: no picture yet, so the painter offers a blank canvas of the node's size.
    let painter = await MaskPainterDialog.open(fix);
    await painter.dialog.getByText('“Draw” has not made an image yet').waitFor();
    expect(await painter.button('Undo').isDisabled()).toBe(true);
    await painter.button(`Paint on a blank ${SIZE}×${SIZE} canvas`).click();
    expect(await painter.area.evaluate((c: HTMLCanvasElement) => [c.width, c.height])).toEqual([SIZE, SIZE]);
    expect(await painter.coverage()).toBe('none');

    await painter.stroke(FROM, TO);
    await expect.poll(() => painter.coverage()).toMatch(/^\d+%$/);
    const painted = await painter.coverage();
    expect(parseInt(painted, 10)).toBeGreaterThanOrEqual(2);
    expect(parseInt(painted, 10)).toBeLessThanOrEqual(10);

    // Ctrl+Z and Ctrl+Shift+Z work on the painter's strokes, not on the graph.
    await page.keyboard.press('Control+z');
    await expect.poll(() => painter.coverage()).toBe('none');
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => painter.coverage()).toBe(painted);

    // Invert (X) and Clear are steps of their own, each undone by one Undo.
    await page.keyboard.press('x');
    await expect.poll(() => painter.coverage()).not.toBe(painted);
    // Rounding may split the edge pixels either way.
    expect(Math.abs(parseInt(await painter.coverage(), 10) + parseInt(painted, 10) - 100)).toBeLessThanOrEqual(1);
    await painter.button('Undo').click();
    await expect.poll(() => painter.coverage()).toBe(painted);
    await painter.button('Clear').click();
    await expect.poll(() => painter.coverage()).toBe('none');
    await painter.button('Undo').click();
    await expect.poll(() => painter.coverage()).toBe(painted);
    // The eraser (E) takes paint away.
    await page.keyboard.press('e');
    expect(await painter.button('Eraser').getAttribute('aria-pressed')).toBe('true');
    await painter.stroke({ x: 0.14, y: 0.5 }, { x: 0.2, y: 0.5 }, 4);
    await expect.poll(() => painter.coverage()).not.toBe(painted);
    await page.keyboard.press('Control+z');
    await expect.poll(() => painter.coverage()).toBe(painted);

    await painter.save();
    expect(await graphUndo.count(), 'the painter’s undo left the graph’s history alone').toBe(0);
    const thumbnail = fix.root.getByRole('img', { name: `Painted mask, ${SIZE}×${SIZE}: white is repainted` });
    await thumbnail.waitFor();
    await maskIssue.waitFor({ state: 'detached' });
    // Saving was one graph edit: one Undo takes the mask away, one Redo brings it back.
    await editor.undo();
    await fix.root.getByText('No mask painted yet.').waitFor();
    await editor.redo();
    await thumbnail.waitFor();

    expect(await editor.runToEnd()).toBe('Run finished');
    await editor.fitView();
    const draw = editor.node('Draw');
    await expect.poll(() => fix.phase()).toBe('done');
    const before = await draw.images.first().locator('img').getAttribute('src');
    const after = await fix.images.first().locator('img').getAttribute('src');
    expect(before).toMatch(/^blob:/);
    expect(after).toMatch(/^blob:/);
    // The brush is 48 px wide across x 77..230 at y 256 (mask pixels; the image is the same size).
    const [inside, right, above] = await meanDiffs(page, before!, after!, [
      { left: 95, top: 246, width: 120, height: 20 },
      { left: 300, top: 0, width: 212, height: 512 },
      { left: 0, top: 0, width: 512, height: 190 },
    ]);
    // Outside the mask only the JPEG re-encoding of the kept pixels separates the two (about 2).
    expect(inside).toBeGreaterThan(10);
    expect(right).toBeLessThan(4);
    expect(above).toBeLessThan(4);
    expect(inside).toBeGreaterThan(4 * Math.max(right!, above!));

    // Now the picture is known: the painter shows it under the mask. Cancel keeps the saved mask.
    painter = await MaskPainterDialog.open(fix);
    await painter.dialog.getByText('Over the last run of “Draw”.').waitFor();
    await expect.poll(() => painter.picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(SIZE);
    await expect.poll(() => painter.coverage()).toBe(painted);
    await page.keyboard.press('x');
    await expect.poll(() => painter.coverage()).not.toBe(painted);
    await painter.cancel();

    // The file holds the mask as the API takes it: a PNG, white where painted, black elsewhere.
    const saved = JSON.parse((await downloadBytes(await editor.save())).toString('utf8')) as Workflow;
    const mask = saved.nodes.find((n) => n.id === 'fix')?.params.mask_paint as { b64: string; width: number; height: number };
    expect({ width: mask.width, height: mask.height }).toEqual({ width: SIZE, height: SIZE });
    expect(mask.b64.startsWith('iVBOR')).toBe(true);
    const { data, info } = await sharp(Buffer.from(mask.b64, 'base64')).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([SIZE, SIZE]);
    const at = (x: number, y: number) => data[y * SIZE + x];
    expect([at(120, 256), at(200, 256), at(150, 270)]).toEqual([255, 255, 255]);
    expect([at(400, 256), at(120, 100), at(20, 256), at(150, 400)]).toEqual([0, 0, 0, 0]);

    // A new resolution stretches the mask with the picture; the field says so.
    await fix.moreOptions();
    await fix.field('Resolution').selectOption('768x512');
    await fix.root.getByText('Painted at 512×512; it is stretched to the node’s 768×512, as the picture is.').waitFor();
  });

  it('paints over an Image loader’s picture at the node’s resolution; keys size the brush; Escape discards', async () => {
    const red = await sharp({ create: { width: 48, height: 64, channels: 3, background: '#d02020' } }).png().toBuffer();
    const photo = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#2040d0' } })
      .composite([{ input: red, left: 0, top: 0 }]).png().toBuffer();
    const workflow = workflowFile('Loader mask', [
      { id: 'photo', type: 'image-loader', title: 'Photo', position: { x: 0, y: 0 }, params: { image: { b64: photo.toString('base64'), mime: 'image/png', name: 'photo.png', width: 96, height: 64 } } },
      { id: 'touch', type: 'inpaint', title: 'Touch up', position: { x: 380, y: 0 }, params: { width: 1152, height: 896, prompt: 'a sail' } },
    ], [{ id: 'e1', source: { node: 'photo', port: 'image' }, target: { node: 'touch', port: 'image' } }]);
    const editor = await session.open();
    const { page } = editor;
    await editor.openWorkflow(workflow, join(dir, 'loader-mask.json'));
    const touch = editor.node('Touch up');
    const painter = await MaskPainterDialog.open(touch);
    await painter.dialog.getByText('Over the picture in “Photo”.').waitFor();
    await expect.poll(() => painter.picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
    // The node's resolution, not the picture's: the API stretches the picture to it.
    expect(await painter.area.evaluate((c: HTMLCanvasElement) => [c.width, c.height])).toEqual([1152, 896]);
    const box = await painter.area.boundingBox();
    expect(box!.width / box!.height).toBeCloseTo(1152 / 896, 2);

    const size = painter.dialog.getByRole('slider', { name: 'Brush size' });
    expect(await size.inputValue()).toBe('58');
    await page.keyboard.press(']');
    expect(await size.inputValue()).toBe('73');
    await page.keyboard.press('[');
    await page.keyboard.press('[');
    expect(await size.inputValue()).toBe('46');
    await page.keyboard.press('e');
    expect(await painter.button('Eraser').getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('b');
    expect(await painter.button('Brush').getAttribute('aria-pressed')).toBe('true');

    await painter.stroke({ x: 0.3, y: 0.3 }, { x: 0.7, y: 0.6 });
    await expect.poll(() => painter.coverage()).not.toBe('none');
    await page.keyboard.press('Escape');
    await painter.dialog.waitFor({ state: 'detached' });
    await touch.root.getByText('No mask painted yet.').waitFor();
    expect(await page.getByRole('button', { name: 'Undo open workflow' }).count()).toBe(1);

    // Opening put the picture into the asset store (IndexedDB) under its SHA-256, and Save writes
    // the very base64 the file held.
    const hash = createHash('sha256').update(photo).digest('hex');
    const storedBytes = async () => (JSON.parse(await readIndexedDb(page, 'atelier-assets', 'assets', hash)) as { blob?: { blobBytes: number } } | null)?.blob?.blobBytes;
    await expect.poll(storedBytes).toBe(photo.length);
    const saved = JSON.parse((await downloadBytes(await editor.save())).toString('utf8')) as Workflow;
    expect((saved.nodes.find((n) => n.id === 'photo')?.params.image as { b64: string }).b64).toBe(photo.toString('base64'));
  });

  it('says a connected Mask input wins over a painted mask', async () => {
    const editor = await session.open();
    await editor.openExample('Restyle chain');
    await editor.fitView();
    const sky = editor.node('Repaint the sky');
    await sky.root.getByText('The Mask input is connected, so its image is the mask.').waitFor();
  });
});
