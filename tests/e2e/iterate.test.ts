import { describe, expect, it } from 'vitest';
import { figureText, nodeRunMenu, runAndWait } from '../run/run-page';
import { editorSession } from './fixtures';

const session = editorSession();

describe('iterating cheaply', () => {
  it('"Run from here" re-makes the node and what follows, serving what it needs from the cache', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    expect(await editor.runToEnd()).toBe('Run finished');
    const writer = editor.node('Prompt writer');
    const draw = editor.node('Draw it (SDXL)');

    expect(await runAndWait(editor, () => nodeRunMenu(draw, 'Run from here'))).toBe('Run finished');

    // The chat is not asked again: its badge says it came from the cache, and what that saved.
    expect(await writer.phase()).toBe('cached');
    expect(await writer.status.textContent()).toBe('Cached (saved 1 call)');
    expect(await draw.phase()).toBe('done');
    expect(await editor.node('Preview').phase()).toBe('done');
    expect(await figureText(editor.lastRun, 'Calls made')).toBe('1');
    expect(await figureText(editor.lastRun, 'Calls saved by the cache')).toBe('1');
  });

  it('a right-click on a node opens its run menu, but not in a text field; Escape closes it and gives the focus back to ▶', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const draw = editor.node('Draw it (SDXL)');
    const menu = editor.page.getByRole('menu', { name: `Run ${draw.title}` });
    await draw.root.locator('.node-header').click({ button: 'right' });
    await menu.getByRole('menuitem', { name: 'Run to here' }).waitFor();
    await editor.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    const button = draw.root.getByRole('button', { name: `Run options for ${draw.title}` });
    expect(await button.evaluate((b) => b === document.activeElement)).toBe(true);
    // Another node's menu replaces an open one.
    await draw.root.locator('.node-header').click({ button: 'right' });
    await menu.waitFor();
    const writer = editor.node('Prompt writer');
    await writer.root.locator('.node-header').click({ button: 'right' });
    await editor.page.getByRole('menu', { name: `Run ${writer.title}` }).waitFor();
    expect(await menu.count()).toBe(0);
    await editor.page.keyboard.press('Escape');
    await draw.field('Negative prompt').click({ button: 'right' });
    await editor.page.waitForTimeout(200);
    expect(await menu.count()).toBe(0);
  });

  it('after a change to the last node only that node runs, "run to here" stops at its node, and the cache outlives a reload', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    expect(await editor.runToEnd()).toBe('Run finished');
    const writer = editor.node('Prompt writer');
    const draw = editor.node('Draw it (SDXL)');

    await draw.field('Images').fill('1');
    await draw.field('Images').blur();
    expect(await runAndWait(editor, () => editor.run())).toBe('Run finished');
    expect(await writer.phase()).toBe('cached');
    expect(await draw.phase()).toBe('done');
    await expect.poll(() => draw.images.count()).toBe(1);
    expect(await figureText(editor.lastRun, 'Calls made')).toBe('1');

    // From the keyboard: select the writer, Ctrl+Shift+Enter runs it and what it needs, nothing after.
    await writer.select();
    expect(await runAndWait(editor, () => editor.page.keyboard.press('ControlOrMeta+Shift+Enter'))).toBe('Run finished');
    expect(await writer.phase()).toBe('cached');
    expect(await draw.phase()).toBe('');
    expect(await figureText(editor.lastRun, 'Calls made')).toBe('0');

    // The cache lives in IndexedDB: after a reload the same run sends nothing.
    await editor.page.reload();
    await editor.pane.waitFor();
    await editor.node('Draw it (SDXL)').root.waitFor();
    expect(await editor.runToEnd()).toBe('Run finished');
    expect(await editor.node('Draw it (SDXL)').phase()).toBe('cached');
    expect(await figureText(editor.lastRun, 'Calls made')).toBe('0');
    expect(await figureText(editor.lastRun, 'Calls saved by the cache')).toBe('2');
  });
});
