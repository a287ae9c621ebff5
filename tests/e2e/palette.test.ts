import { describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';

const session = editorSession();

describe('the node palette', () => {
  for (const [name, key] of [['Ctrl+K', 'ControlOrMeta+k'], ['/', '/']] as const) {
    it(`opened with ${name} on a fresh page takes every key typed right after it, and none as a canvas shortcut`, async () => {
      const editor = await session.open();
      const { page } = editor;
      await editor.clickCanvas();
      // Nodes out of view are not drawn: count them with the whole workflow in view.
      await editor.fitView();
      const before = await editor.nodes.count();

      await page.keyboard.press(key);
      // At a person's pace; the "n" would add a note, were it taken by the canvas.
      await page.keyboard.type('inpaint', { delay: 40 });
      expect(await editor.nodes.count()).toBe(before);
      expect(await editor.paletteSearch.inputValue()).toBe('inpaint');
      await page.keyboard.press('Enter');
      await editor.node('Inpaint').root.waitFor();
      await editor.palette.waitFor({ state: 'detached' });
      await editor.fitView();
      expect(await editor.nodes.count()).toBe(before + 1);
    });
  }

  it('is offered by an empty canvas, which says how to add a node, and keeps its search field inside its box', async () => {
    const editor = await session.open();
    const { page } = editor;
    await editor.newWorkflow();
    const hint = page.getByText('Double-click or press Ctrl+K to add a node');
    await hint.waitFor();

    // The hint lets a double-click through to the canvas under it.
    const at = await hint.boundingBox();
    if (!at) throw new Error('the hint is not on screen');
    await page.mouse.dblclick(at.x + at.width / 2, at.y + at.height / 2);
    await editor.paletteSearch.waitFor();
    const box = await editor.palette.boundingBox();
    const field = await editor.paletteSearch.boundingBox();
    if (!box || !field) throw new Error('the palette is not on screen');
    expect(field.x).toBeGreaterThanOrEqual(box.x);
    expect(field.x + field.width).toBeLessThanOrEqual(box.x + box.width);

    await editor.paletteSearch.fill('Text');
    await page.keyboard.press('Enter');
    await editor.node('Text').root.waitFor();
    await hint.waitFor({ state: 'detached' });
  });
});

