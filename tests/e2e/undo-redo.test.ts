import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { Workflow } from '../../workflow/schema';
import { editorSession } from './fixtures';
import { downloadBytes } from './pages/editor';
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

  it('inside a text field, Ctrl+Z takes back the whole run of typing, as in a plain text field, not one character', async () => {
    // The starter workflow: fields that already hold text when they are first drawn.
    const editor = await session.open();
    const { page } = editor;
    const chat = editor.node('Chat prompt writer');
    const restyle = editor.node('Image to image');

    // A chat template and a prompt (with its token count): both long-text fields.
    for (const field of [chat.field('User message'), restyle.field('Prompt')]) {
      const before = await field.inputValue();
      expect(before).not.toBe('');
      // Typing starts once the page has settled, as a person's does: Chrome ends its group of
      // typed characters when a node leaves the page (docs/decisions.md), and the first estimate
      // replacing its placeholder right after the first key split that key off (1 run in 8 under load).
      await editor.quiet();
      await field.click();
      await field.press('ControlOrMeta+End');
      await field.pressSequentially(', gulls', { delay: 40 });
      await undoTypingAndRedo(field, before, `${before}, gulls`);
    }

    // A note.
    await editor.clickCanvas();
    await page.keyboard.press('n');
    const note = page.getByRole('textbox', { name: 'Note text (Markdown)' });
    await expect.poll(() => note.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('gulls over the harbour', { delay: 40 });
    await undoTypingAndRedo(note, '', 'gulls over the harbour');

    // The workflow holds what the fields show, the one still being typed in included.
    const saved = JSON.parse((await downloadBytes(await editor.save())).toString('utf8')) as Workflow;
    const param = (type: string, name: string) => saved.nodes.find((n) => n.type === type)?.params[name];
    expect(param('chat-prompt-writer', 'user')).toMatch(/, gulls$/);
    expect(param('image-to-image', 'prompt')).toMatch(/, gulls$/);
    expect(saved.notes?.map((n) => n.text)).toEqual(['gulls over the harbour']);
  });

  it('names a duplicate as such: Ctrl+D is undone by "Undo duplicate node"', async () => {
    const editor = await session.open();
    // Nodes out of view are not drawn: the whole starter in view, its last node too.
    await editor.fitView();
    const before = await editor.nodes.count();
    await editor.node('Preview / save').select();
    await editor.page.keyboard.press('ControlOrMeta+d');
    const undo = editor.page.getByRole('button', { name: 'Undo duplicate node' });
    await undo.waitFor();
    await editor.fitView();
    await expect.poll(() => editor.nodes.count()).toBe(before + 1);
    await undo.click();
    await expect.poll(() => editor.nodes.count()).toBe(before);
  });
});

/**
 * Ctrl+Z in a field takes back a run of typing in one step, or a few when the typing paused (a
 * loaded machine can pause it mid-word): never one step per key. Then Ctrl+Shift+Z as many times
 * brings all of it back.
 */
async function undoTypingAndRedo(field: Locator, before: string, typed: string): Promise<void> {
  await expect.poll(() => field.inputValue()).toBe(typed);
  let undos = 0;
  for (let value = typed; value !== before && undos < typed.length; undos++) {
    const shown = value;
    await field.press('ControlOrMeta+z');
    await expect.poll(async () => (value = await field.inputValue())).not.toBe(shown);
  }
  expect(await field.inputValue()).toBe(before);
  expect(undos).toBeLessThanOrEqual(3);
  for (let i = 0; i < undos; i++) await field.press('ControlOrMeta+Shift+z');
  await expect.poll(() => field.inputValue()).toBe(typed);
}
