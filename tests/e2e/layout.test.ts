/**
 * The editor's layout as a new person finds it, at 1440×900 and at 1024×768: the starter opens
 * readable, nothing is cut off, Run is the strongest button, the side panel collapses and
 * resizes (remembered), and nothing lands on anything: new, pasted and duplicated nodes go where
 * there is room and the view follows them; frames grow to hold what is in them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import type { EditorPage } from './pages/editor';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-layout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SIZES = [{ width: 1440, height: 900 }, { width: 1024, height: 768 }] as const;

/** Every box of the toolbar's controls and of the side panel, as [name, right edge, bottom edge]. */
async function edges(editor: EditorPage): Promise<[string, number, number][]> {
  return editor.page.locator('header.toolbar button, header.toolbar input, .side-panel').evaluateAll((els) => els.map((el) => {
    const r = el.getBoundingClientRect();
    return [el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.className, r.right, r.bottom] as [string, number, number];
  }));
}

/** The side panel's width on screen. */
async function panelWidth(editor: EditorPage): Promise<number> {
  return (await editor.page.locator('.side-panel').boundingBox())?.width ?? 0;
}

describe.each(SIZES)('at $width×$height', (size) => {
  it('the starter opens readable: its smallest text in the nodes is 11 px or more on screen, its first node in view, nothing cut off', async () => {
    const editor = await session.open({ viewport: size });
    await editor.page.getByRole('region', { name: 'Cost estimate' }).getByText('Price units').waitFor();
    await editor.viewSettled();
    await editor.quiet();
    const smallest = await editor.smallestNodeText();
    expect(Number.isFinite(smallest.px), 'text was found in the nodes').toBe(true);
    expect(smallest.px, `"${smallest.text}" is drawn at ${smallest.px.toFixed(1)} px`).toBeGreaterThanOrEqual(11);
    // The start of the graph is shown: the chat prompt writer that begins it is in view, whole across.
    const first = editor.node('Chat prompt writer').root;
    const [box, canvas] = [await first.boundingBox(), await editor.canvasBox()];
    expect(box!.x).toBeGreaterThanOrEqual(canvas.x);
    expect(box!.x + box!.width).toBeLessThanOrEqual(canvas.x + canvas.width);
    expect(await editor.overlaps()).toEqual([]);
    // Nothing of the toolbar or the side panel is cut off, and the page does not scroll sideways.
    for (const [name, right, bottom] of await edges(editor)) {
      expect(right, `${name} ends inside the window`).toBeLessThanOrEqual(size.width);
      expect(bottom, `${name} ends inside the window`).toBeLessThanOrEqual(size.height);
    }
    expect(await editor.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    const run = (await editor.runButton.boundingBox())!;
    expect(run.x + run.width).toBeLessThanOrEqual(size.width);
    expect(run.y + run.height).toBeLessThanOrEqual(size.height);
  });

  it('adding twice (+ Add node, Ctrl+K with the pointer off the canvas), pasting and duplicating give nodes that cover nothing, in view', async () => {
    const editor = await session.open({ viewport: size });
    const { page } = editor;
    await editor.viewSettled();
    // Nodes out of view are not drawn, so what is new is told by its id: the one selected.
    const seen = new Set(await editor.nodes.evaluateAll((els) => els.map((el) => el.getAttribute('data-id'))));
    const made = async (what: string) => {
      await expect.poll(async () => {
        const id = await page.locator('.react-flow__node.selected').first().getAttribute('data-id', { timeout: 1000 }).catch(() => null);
        return id !== null && !seen.has(id);
      }, { message: `${what} made a node` }).toBe(true);
      seen.add(await page.locator('.react-flow__node.selected').first().getAttribute('data-id'));
    };
    const add = async (open: () => Promise<void>) => {
      await open();
      await editor.paletteSearch.fill('Text');
      await editor.palette.getByRole('option', { name: /^Text\b/ }).first().click();
      await made('the palette');
      await editor.viewSettled();
      const added = page.locator('.react-flow__node.selected');
      expect(await editor.inView(added), 'the new node is in view').toBe(true);
      expect(await editor.overlaps()).toEqual([]);
    };
    await add(() => page.getByRole('button', { name: /^\+ Add node/ }).click());
    await add(() => page.getByRole('button', { name: /^\+ Add node/ }).click());
    // The pointer over the toolbar, not the canvas: the node goes in the middle of the view.
    await page.mouse.move(5, 5);
    await add(() => page.keyboard.press('ControlOrMeta+k'));

    // Copy the selected node and paste it twice; duplicate it.
    await page.keyboard.press('ControlOrMeta+c');
    for (const key of ['ControlOrMeta+v', 'ControlOrMeta+v', 'ControlOrMeta+d']) {
      await page.keyboard.press(key);
      await made(key);
      await editor.viewSettled();
      expect(await editor.inView(page.locator('.react-flow__node.selected')), `what ${key} made is in view`).toBe(true);
      expect(await editor.overlaps(), `after ${key}`).toEqual([]);
    }
  });

  it('a node added at the right edge of the view is brought whole into view', async () => {
    const editor = await session.open({ viewport: size });
    await editor.newWorkflow();
    const node = await editor.addNode('Split text', 'right-edge');
    expect(await editor.inView(node.root)).toBe(true);
    expect(await editor.overlaps()).toEqual([]);
  });
});

describe('the side panel and Run', () => {
  it('Run is the strongest button: filled with the accent colour, larger and bolder than + Add node', async () => {
    const editor = await session.open();
    const style = (selector: 'run' | 'add') => (selector === 'run' ? editor.runButton : editor.page.getByRole('button', { name: /^\+ Add node/ }))
      .evaluate((el) => {
        const s = getComputedStyle(el);
        return { background: s.backgroundColor, size: parseFloat(s.fontSize), weight: Number(s.fontWeight) };
      });
    const [run, add] = [await style('run'), await style('add')];
    expect(run.background).not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
    expect(add.background).toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
    expect(run.size).toBeGreaterThan(add.size);
    expect(run.weight).toBeGreaterThan(add.weight);
  });

  it('collapses to a rail that keeps Run (button and P), resizes by drag and by keys, and both are remembered after a reload', async () => {
    const editor = await session.open();
    const { page } = editor;
    const estimate = page.getByRole('region', { name: 'Cost estimate' });
    await estimate.waitFor();
    const wide = await panelWidth(editor);
    const canvasBefore = (await editor.canvasBox()).width;

    await page.getByRole('button', { name: 'Collapse the side panel' }).click();
    await estimate.waitFor({ state: 'hidden' });
    expect(await panelWidth(editor)).toBeLessThan(120);
    expect((await editor.canvasBox()).width).toBeGreaterThan(canvasBefore + 150);
    expect(await editor.runButton.isVisible()).toBe(true);
    await page.reload();
    await editor.pane.waitFor();
    await editor.runButton.waitFor();
    expect(await panelWidth(editor)).toBeLessThan(120);
    // P brings it back (the canvas has the keys).
    await editor.clickCanvas();
    await page.keyboard.press('p');
    await estimate.waitFor();
    expect(await panelWidth(editor)).toBeCloseTo(wide, 0);

    // The handle: arrow keys widen it step by step, a drag narrows it.
    const handle = page.getByRole('separator', { name: 'Resize the side panel' });
    await handle.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
    await expect.poll(() => panelWidth(editor)).toBeCloseTo(wide + 60, 0);
    expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(Math.round(wide) + 60);
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 50, box.y + 200, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => panelWidth(editor)).toBeCloseTo(wide + 10, 0);
    await page.reload();
    await editor.pane.waitFor();
    await estimate.waitFor();
    expect(await panelWidth(editor)).toBeCloseTo(wide + 10, 0);
  });
});

describe('frames and growing nodes', () => {
  it('a frame grows to hold a node moved to its edge', async () => {
    const editor = await session.open();
    const { page } = editor;
    const meta = { title: 'Frame', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' };
    const path = join(dir, 'frame.json');
    writeFileSync(path, JSON.stringify({
      format: 'atelier.workflow', version: 1, metadata: meta, edges: [],
      nodes: [{ id: 'words', type: 'text', title: 'Words', position: { x: 40, y: 80 }, params: { text: 'a fox' } }],
      groups: [{ id: 'g', title: 'Held', color: 'blue', position: { x: 0, y: 0 }, size: { width: 400, height: 400 }, nodes: ['words'], notes: [] }],
    }));
    await editor.open(path);
    await page.getByText('Opened “Frame”').waitFor();
    await editor.viewSettled();
    const frame = page.getByRole('group', { name: 'Group: Held' });
    const words = editor.node('Words');
    // Already held: the frame covers the whole node.
    const covers = async () => {
      const [f, n] = [(await frame.boundingBox())!, (await words.root.boundingBox())!];
      return f.x <= n.x && f.y <= n.y && f.x + f.width >= n.x + n.width && f.y + f.height >= n.y + n.height;
    };
    expect(await covers()).toBe(true);
    const widthBefore = (await frame.boundingBox())!.width;
    // Drag the node right, its title bar still inside the frame: the frame grows to hold it.
    const header = words.root.locator('.node-header');
    const h = (await header.boundingBox())!;
    await page.mouse.move(h.x + 20, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x + 80, h.y + h.height / 2, { steps: 6 });
    await page.mouse.move(h.x + 140, h.y + h.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(covers).toBe(true);
    expect((await frame.boundingBox())!.width).toBeGreaterThan(widthBefore + 50);
    expect(await editor.overlaps()).toEqual([]);
  });
});
