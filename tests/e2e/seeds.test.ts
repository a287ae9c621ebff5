import { describe, expect, it } from 'vitest';
import { runAndWait } from '../run/run-page';
import { editorSession } from './fixtures';

const session = editorSession();

describe('seed control', () => {
  it('"increment" moves the seed on after each run, and consecutive runs undo as one step', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const draw = editor.node('Draw it (SDXL)');
    await draw.field('After each run').selectOption('increment');

    expect(await editor.runToEnd()).toBe('Run finished');
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1235');
    // The images show the seeds they were made with, not the one the next run uses.
    await expect.poll(() => draw.images.first().getAttribute('aria-label')).toBe('Open image 1 of Draw it (SDXL) (seed 1234)');

    expect(await runAndWait(editor, () => editor.run())).toBe('Run finished');
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1236');
    await expect.poll(() => draw.images.first().getAttribute('aria-label')).toBe('Open image 1 of Draw it (SDXL) (seed 1235)');

    await editor.undo();
    expect(await draw.field('Seed').inputValue()).toBe('1234');
    expect(await draw.field('After each run').inputValue()).toBe('increment');
  });

  it('"random" picks a new seed after each run', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const draw = editor.node('Draw it (SDXL)');
    await draw.field('After each run').selectOption('random');

    expect(await editor.runToEnd()).toBe('Run finished');
    await expect.poll(() => draw.field('Seed').inputValue()).not.toBe('1234');
    const first = await draw.field('Seed').inputValue();
    expect(first).toMatch(/^\d+$/);
    expect(await runAndWait(editor, () => editor.run())).toBe('Run finished');
    await expect.poll(() => draw.field('Seed').inputValue()).not.toBe(first);
  });

  it('"pin this seed" sets the seed of the node that made the image and fixes it, from the viewer and from a preview', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const draw = editor.node('Draw it (SDXL)');
    await draw.field('After each run').selectOption('increment');
    expect(await editor.runToEnd()).toBe('Run finished');
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1235');

    await draw.images.first().click();
    const viewer = editor.page.getByRole('dialog', { name: 'Draw it (SDXL): image 1 of 2' });
    await viewer.getByRole('button', { name: 'Pin this seed' }).click();
    await editor.page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    expect(await draw.field('Seed').inputValue()).toBe('1234');
    expect(await draw.field('After each run').inputValue()).toBe('fixed');

    // The preview shows the drawing's second image: its pin goes to the drawing.
    await editor.node('Preview').results.getByRole('button', { name: 'Pin seed 1235 on Draw it (SDXL)' }).click();
    expect(await draw.field('Seed').inputValue()).toBe('1235');
  });
});
