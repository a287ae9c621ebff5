/**
 * Components in the editor, as a person uses them: make one of the starter's two image nodes
 * (Ctrl+Shift+G, a name, a field shown under a label of its own), use it twice, open it, edit
 * the definition once and see both instances follow, come back by the breadcrumb, and run. An
 * inner seed on "increment" moves on in the definition once per run, from the top level and from
 * inside; "pin this seed" on an instance's picture lands there; Face… is in the node's menu too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { downloadBytes } from './pages/editor';
import { editorSession } from './fixtures';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-components-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('components', () => {
  it('makes a component, uses it twice, edits its definition once for both, unpacks it and runs', async () => {
    const editor = await session.open();
    const { page } = editor;
    await editor.node('Text to image').select();
    await editor.node('Image to image').root.locator('.node-header .node-title').click({ modifiers: ['Shift'] });

    await page.keyboard.press('ControlOrMeta+Shift+g');
    const dialog = page.getByRole('dialog', { name: 'Make component' });
    await dialog.getByLabel('Name').fill('Restyle');
    await dialog.getByRole('checkbox', { name: 'Image to image: Strength' }).check();
    await dialog.getByLabel('Label of Image to image: Strength').fill('Restyle strength');
    await dialog.getByRole('button', { name: 'Make component' }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    const first = editor.node('Restyle');
    await first.root.waitFor();
    await editor.fitView();
    await expect.poll(() => editor.nodes.count()).toBe(3);
    // Its ports are the wires that crossed the selection's border.
    await expect.poll(() => editor.wires.count()).toBe(2);
    // Unset on the instance, the field shows the definition's value (as a placeholder, like any default).
    const shown = (node: typeof first) => node.field('Restyle strength').getAttribute('placeholder');
    expect(await shown(first)).toBe('0.55');

    // A second instance: the same definition, stored once.
    await first.select();
    await page.keyboard.press('ControlOrMeta+d');
    const second = editor.node('Restyle 2');
    await second.root.waitFor();

    // Open the first, edit its Image to image once, and come back by the breadcrumb.
    await first.root.getByRole('button', { name: 'Open Restyle' }).click();
    const path = page.getByRole('navigation', { name: 'Component path' });
    await path.waitFor();
    await editor.fitView();
    await expect.poll(() => editor.nodes.count()).toBe(2);
    const inner = editor.node('Image to image').field('Strength');
    await inner.fill('0.3');
    await inner.blur();
    await path.getByRole('button', { name: 'Prompt → picture → restyle' }).click();
    await expect.poll(() => path.count()).toBe(0);
    await editor.fitView();
    await expect.poll(() => editor.nodes.count()).toBe(4);
    // Both instances show the edited definition.
    await expect.poll(() => shown(first)).toBe('0.3');
    await expect.poll(() => shown(second)).toBe('0.3');

    // Run: the instance shows its status and its picture.
    expect(await editor.runToEnd()).toBe('Run finished');
    await expect.poll(() => first.phase()).toBe('done');
    await expect.poll(() => first.images.count()).toBeGreaterThan(0);

    // Unpack the second (unwired) one: its two nodes come back, one undo step takes them away.
    await second.root.getByRole('button', { name: 'Unpack Restyle 2' }).click();
    await editor.fitView();
    await expect.poll(() => editor.nodes.count()).toBe(5);
    await editor.undo();
    await expect.poll(() => editor.nodes.count()).toBe(4);
  });

  it('adds a saved component from the palette, and an imported one, each as one undo step', async () => {
    const editor = await session.open();
    const { page } = editor;
    await editor.node('Image to image').select();
    await page.keyboard.press('ControlOrMeta+Shift+g');
    const dialog = page.getByRole('dialog', { name: 'Make component' });
    await dialog.getByLabel('Name').fill('Restyle');
    await dialog.getByRole('button', { name: 'Make component' }).click();
    const made = editor.node('Restyle');
    await made.root.waitFor();
    await made.root.getByRole('button', { name: 'Save Restyle to My components' }).click();
    await page.getByText("'Restyle' saved to My components").waitFor();
    const downloaded = page.waitForEvent('download');
    await made.root.getByRole('button', { name: 'Export Restyle' }).click();
    const file = join(dir, 'restyle.component.json');
    writeFileSync(file, await downloadBytes(await downloaded));

    // A new workflow has no components: each add brings the definition and its node, and one
    // undo takes both away (the step before it, opening the new workflow, is next again).
    await editor.newWorkflow();
    const undoLabel = () => page.getByRole('button', { name: /^Undo/ }).getAttribute('aria-label');
    const before = await undoLabel();
    await editor.addNode('Restyle', { x: 200, y: 200 });
    await expect.poll(() => editor.nodes.count()).toBe(1);
    expect(await undoLabel()).toBe('Undo add Restyle');
    await editor.undo();
    await expect.poll(() => editor.nodes.count()).toBe(0);
    expect(await undoLabel()).toBe(before);

    const chooser = page.waitForEvent('filechooser');
    await page.getByText('Import component', { exact: true }).click();
    await (await chooser).setFiles(file);
    await page.getByText("Added 'Restyle'").waitFor();
    await expect.poll(() => editor.nodes.count()).toBe(1);
    expect(await undoLabel()).toBe('Undo add Restyle');
    await editor.undo();
    await expect.poll(() => editor.nodes.count()).toBe(0);
    expect(await undoLabel()).toBe(before);
  });

  it('changes a component\'s face after Make: every instance shows the fields chosen, as one undo step', async () => {
    const editor = await session.open();
    const { page } = editor;
    await editor.node('Image to image').select();
    await page.keyboard.press('ControlOrMeta+Shift+g');
    const make = page.getByRole('dialog', { name: 'Make component' });
    await make.getByLabel('Name').fill('Restyle');
    await make.getByRole('button', { name: 'Make component' }).click();
    const first = editor.node('Restyle');
    await first.root.waitFor();
    // The second one away from the first: a node that grows moves what it covers, a step of its own.
    await editor.addNode('Restyle', 'right-edge');
    const second = editor.node('Restyle 2');
    await second.root.waitFor();
    expect(await first.root.getByLabel('How far').count()).toBe(0);

    await first.root.getByRole('button', { name: 'Edit face of Restyle' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit face of Restyle' });
    await dialog.getByRole('checkbox', { name: 'Image to image: Strength' }).check();
    await dialog.getByLabel('Label of Image to image: Strength').fill('How far');
    await dialog.getByRole('button', { name: 'Save face' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    // Both instances show it, with the definition's value as a placeholder.
    await expect.poll(() => first.field('How far').getAttribute('placeholder')).toBe('0.55');
    await expect.poll(() => second.field('How far').getAttribute('placeholder')).toBe('0.55');
    // Grown, an instance moves aside what it now covers: a step of its own after the edit, as when
    // results arrive. Once nothing overlaps, the steps are all there.
    await expect.poll(() => editor.overlaps()).toEqual([]);
    const undoLabel = () => page.getByRole('button', { name: /^Undo/ }).getAttribute('aria-label');
    if (await undoLabel() === 'Undo make room') await editor.undo();
    expect(await undoLabel()).toBe('Undo edit the face of Restyle');
    await expect.poll(() => first.field('How far').count()).toBe(1);

    await editor.undo();
    await expect.poll(() => first.root.getByLabel('How far').count()).toBe(0);
    await expect.poll(() => second.root.getByLabel('How far').count()).toBe(0);

    // Face… is in the node's right-click menu too, by pointer and by keyboard.
    await second.root.locator('.node-header .node-title').click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Run Restyle 2' });
    await menu.getByRole('menuitem', { name: 'Face…' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await second.root.getByRole('button', { name: 'Run options for Restyle 2' }).focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => menu.getByRole('menuitem', { name: 'Run to here' }).evaluate((el) => el === document.activeElement)).toBe(true);
    // Up from the first item wraps to the last: Face….
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    // A node that is not an instance has no Face… to offer.
    await editor.node('Text to image').root.locator('.node-header .node-title').click({ button: 'right' });
    await page.getByRole('menu', { name: 'Run Text to image' }).getByRole('menuitem', { name: 'Run to here' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Face…' }).count()).toBe(0);
  });

  it('moves an inner seed on in the definition once per run, from the top level and from inside, and pins a picture\'s seed there', async () => {
    const editor = await session.open();
    const { page } = editor;
    // The chat and its drawing: a component that needs nothing from outside, used twice.
    await editor.node('Chat prompt writer').select();
    await editor.node('Text to image').root.locator('.node-header .node-title').click({ modifiers: ['Shift'] });
    await page.keyboard.press('ControlOrMeta+Shift+g');
    const make = page.getByRole('dialog', { name: 'Make component' });
    await make.getByLabel('Name').fill('Picture');
    await make.getByRole('button', { name: 'Make component' }).click();
    const first = editor.node('Picture');
    await first.root.waitFor();
    await first.select();
    await page.keyboard.press('ControlOrMeta+d');
    await editor.node('Picture 2').root.waitFor();

    const path = page.getByRole('navigation', { name: 'Component path' });
    const draw = editor.node('Text to image');
    const openFirst = async () => {
      await first.root.getByRole('button', { name: 'Open Picture' }).click();
      await path.waitFor();
      await editor.fitView();
      await draw.moreOptions();
    };
    const goBack = async () => {
      await path.getByRole('button', { name: 'Prompt → picture → restyle' }).click();
      await expect.poll(() => path.count()).toBe(0);
      await editor.fitView();
    };
    await openFirst();
    await draw.field('After each run').selectOption('increment');
    expect(await draw.field('Seed').inputValue()).toBe('1234');
    await goBack();

    // Both instances drew with 1234: the definition's seed moves on once, to 1235.
    expect(await editor.runToEnd()).toBe('Run finished');
    await expect.poll(() => first.images.first().getAttribute('aria-label')).toBe('Open image 1 of Picture, seed 1234');
    await openFirst();
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1235');

    // Run from inside the opened component: the canvas it shows moves on.
    expect(await editor.runToEnd()).toBe('Run finished');
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1236');
    await expect.poll(() => draw.images.first().getAttribute('aria-label')).toBe('Open image 1 of Picture › Text to image, seed 1235');

    // Pinning the instance's picture (made with 1235) sets the definition's seed and fixes it.
    await goBack();
    // Opening a component and going back out keeps the run's results on the canvas.
    await expect.poll(() => first.images.first().getAttribute('aria-label')).toBe('Open image 1 of Picture, seed 1235');
    await first.results.getByRole('button', { name: 'Pin seed 1235 on Picture › Text to image' }).click();
    await openFirst();
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1235');
    expect(await draw.field('After each run').inputValue()).toBe('fixed');
  }, 120_000);
});
