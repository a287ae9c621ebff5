import { describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import type { NodeObject } from './pages/node';

const session = editorSession();

/** Where a node sits on the canvas, in flow coordinates, from React Flow's transform. */
async function position(node: NodeObject): Promise<{ x: number; y: number }> {
  // The node's accessible element is React Flow's node wrapper, which carries the transform.
  const transform = await node.root.evaluate((el) => (el as HTMLElement).style.transform);
  const match = /translate\((-?[\d.]+)px, ?(-?[\d.]+)px\)/.exec(transform);
  if (!match) throw new Error(`no position in '${transform}'`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

describe('undo and redo', () => {
  it('take back and replay each edit, one step per gesture, from the toolbar and the keyboard', async () => {
    const editor = await session.open();
    const { page } = editor;
    await editor.newWorkflow();

    const text = await editor.addNode('Text', { x: 120, y: 160 });
    const preview = await editor.addNode('Preview / save', 'right-edge');
    await editor.fitView();
    await editor.connect(text, 'Text', preview, 'Value');
    await expect.poll(() => editor.wires.count()).toBe(1);

    // Typing is one step however many keys it takes.
    const field = text.field('Text');
    await field.click();
    await field.press('ControlOrMeta+a');
    await field.pressSequentially('a quiet harbour at dawn', { delay: 15 });
    await field.blur();

    // A drag is one step, committed when it ends.
    const before = await position(preview);
    const header = preview.root.locator('.node-header');
    const hb = (await header.boundingBox())!;
    await page.mouse.move(hb.x + 20, hb.y + hb.height / 2);
    await page.mouse.down();
    await page.mouse.move(hb.x + 80, hb.y + 90, { steps: 10 });
    await page.mouse.move(hb.x + 140, hb.y + 180, { steps: 10 });
    await page.mouse.up();
    await expect.poll(async () => (await position(preview)).y).toBeGreaterThan(before.y + 100);
    const moved = await position(preview);

    await editor.undo();
    await expect.poll(() => position(preview)).toEqual(before);
    expect(await field.inputValue()).toBe('a quiet harbour at dawn');

    await editor.undo();
    await expect.poll(() => field.inputValue()).not.toBe('a quiet harbour at dawn');

    await editor.undo();
    await expect.poll(() => editor.wires.count()).toBe(0);

    await editor.undo();
    await expect.poll(() => editor.nodes.count()).toBe(1);

    // Redo from the keyboard, with the focus on the canvas rather than in a field.
    await editor.clickCanvas();
    await page.keyboard.press('ControlOrMeta+Shift+z');
    await expect.poll(() => editor.nodes.count()).toBe(2);
    await page.keyboard.press('ControlOrMeta+Shift+z');
    await expect.poll(() => editor.wires.count()).toBe(1);
    await page.keyboard.press('ControlOrMeta+Shift+z');
    await expect.poll(() => text.field('Text').inputValue()).toBe('a quiet harbour at dawn');
    await page.keyboard.press('ControlOrMeta+Shift+z');
    await expect.poll(() => position(preview)).toEqual(moved);

    await page.keyboard.press('ControlOrMeta+z');
    await expect.poll(() => position(preview)).toEqual(before);
  });
});
