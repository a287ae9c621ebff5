/**
 * Many from one, in the browser: a chat writes four prompts, each is drawn (the pictures come in
 * as their items end), a contact sheet tiles them; and a list edited by hand re-runs only the
 * branch of the line that changed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { figureText, settledEstimate } from '../run/run-page';
import { editorSession } from './fixtures';
import type { EditorPage } from './pages/editor';
import type { NodeObject } from './pages/node';
import { SettingsDialog } from './pages/settings';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-fan-out-'));

/** Records, in the page, every distinct number of result images `node` shows, in order. */
async function watchImageCounts(editor: EditorPage, node: NodeObject): Promise<() => Promise<number[]>> {
  const selector = `[role="group"][aria-label="${node.title} node"]`;
  await editor.page.evaluate((sel) => {
    const seen: number[] = [];
    (window as unknown as { __imageCounts: number[] }).__imageCounts = seen;
    const count = () => document.querySelector(sel)?.querySelectorAll('button[aria-label^="Open image"]').length ?? 0;
    new MutationObserver(() => {
      const n = count();
      if (seen.at(-1) !== n) seen.push(n);
    }).observe(document.body, { subtree: true, childList: true });
  }, selector);
  return () => editor.page.evaluate(() => (window as unknown as { __imageCounts: number[] }).__imageCounts);
}

async function nodesAtOnce(editor: EditorPage, n: number): Promise<void> {
  const settings = await SettingsDialog.open(editor.page);
  await settings.field('Nodes running at once').fill(String(n));
  await settings.dialog.getByRole('button', { name: 'Done' }).click();
  await settings.dialog.waitFor({ state: 'detached' });
}

describe('lists and fan-out', () => {
  it('chat writes 4 prompts → text to image → contact sheet, built from the palette: four pictures come in, then the sheet', async () => {
    // Slow steps and two at a time: the pictures of the first two items are shown before the last two end.
    const server = await session.server({ ATELIER_LOCAL_STEP_MS: '25' });
    const editor = await session.open({ baseUrl: server.url });
    await editor.newWorkflow();
    await nodesAtOnce(editor, 2);

    const chat = await editor.addNode('Chat prompt writer', { x: 120, y: 120 });
    await chat.field('User message').fill('Write four image prompts about a lighthouse on a cliff.');
    await chat.moreOptions();
    await chat.field('Answer as').selectOption({ label: 'A list, one item per line' });
    const draw = await editor.addNode('Text to image', 'right-edge');
    await editor.fitView();
    await draw.takeFromInput('Prompt');
    await editor.connect(chat, 'Items', draw, 'Prompt');
    const sheet = await editor.addNode('Contact sheet', 'right-edge');
    await editor.fitView();
    await editor.connect(draw, 'Image', sheet, 'Images');
    await editor.connect(chat, 'Items', sheet, 'Captions');
    await expect.poll(() => editor.wires.count()).toBe(3);
    // The wires out of the chat's Items and out of the fanned-out image node are drawn as lists.
    await expect.poll(() => editor.page.locator('.react-flow__edge.edge-kind-texts').count()).toBe(2);
    await expect.poll(() => editor.page.locator('.react-flow__edge.edge-kind-images.edge-list').count()).toBe(1);

    const counts = await watchImageCounts(editor, draw);
    expect(await editor.runToEnd(120_000)).toBe('Run finished');

    await expect.poll(() => draw.phase()).toBe('done');
    expect(await draw.root.getByLabel('Items of Text to image', { exact: true }).first().textContent()).toBe('4 of 4 done');
    await editor.inspect(draw);
    await expect.poll(() => draw.images.count()).toBe(4);
    // They came in as their items ended, not all at once at the end.
    const seen = await counts();
    expect(seen.at(-1)).toBe(4);
    expect(seen.some((n) => n > 0 && n < 4), `counts seen: ${seen.join(', ')}`).toBe(true);

    await editor.inspect(sheet);
    await expect.poll(() => sheet.images.count()).toBe(1);
    const img = sheet.results.locator('img').first();
    // Two columns of 256-pixel cells with 8-pixel gaps.
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(8 + 2 * (256 + 8));
    expect(await figureText(editor.lastRun, 'Calls made')).toBe('5');
  });

  it('a line edited by hand in the list re-runs only that line’s picture', async () => {
    const file = join(dir, 'three-lines.json');
    writeFileSync(file, JSON.stringify({
      format: 'atelier.workflow', version: 1,
      metadata: { title: 'Three lines', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
      nodes: [
        { id: 'lines', type: 'text', title: 'Lines', position: { x: 0, y: 0 }, params: { text: 'a red fox\na grey heron\nan owl' } },
        { id: 'split', type: 'split-text', title: 'Split', position: { x: 380, y: 0 }, params: {} },
        { id: 'draw', type: 'text-to-image', title: 'Draw', position: { x: 760, y: 0 }, params: { engine: 'sd', width: 512, height: 512, seed: 7, steps: 10 } },
      ],
      edges: [
        { id: 'a', source: { node: 'lines', port: 'text' }, target: { node: 'split', port: 'text' } },
        { id: 'b', source: { node: 'split', port: 'items' }, target: { node: 'draw', port: 'prompt' } },
      ],
    }));
    const editor = await session.open();
    await editor.open(file);
    await editor.node('Draw').root.waitFor();
    // Before the run, the cost says how many times the node runs. Polled: until the opened file's
    // own estimate lands, the panel may still show the starter's, settled (2 images).
    await expect.poll(async () => figureText(await settledEstimate(editor), 'Images')).toBe('3');
    expect(await editor.runToEnd()).toBe('Run finished');
    const draw = editor.node('Draw');
    await editor.inspect(draw);
    await expect.poll(() => draw.images.count()).toBe(3);
    const before = [await draw.imageSha256(0), await draw.imageSha256(1), await draw.imageSha256(2)];

    await editor.fitView();
    await editor.node('Lines').field('Text').fill('a red fox\na white heron\nan owl');
    await expect.poll(async () => figureText(await settledEstimate(editor), 'Images')).toBe('1');
    expect(await editor.runToEnd()).toBe('Run finished');
    expect(await figureText(editor.lastRun, 'Calls made')).toBe('1');
    await editor.inspect(draw);
    await expect.poll(() => draw.root.getByLabel('Items of Draw', { exact: true }).first().textContent()).toBe('3 of 3 done, 2 cached');
    await expect.poll(() => draw.images.count()).toBe(3);
    const after = [await draw.imageSha256(0), await draw.imageSha256(1), await draw.imageSha256(2)];
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[2]).toBe(before[2]);
  });
});
