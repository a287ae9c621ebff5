/**
 * Components in the editor, as a person uses them: make one of the starter's two image nodes
 * (Ctrl+Shift+G, a name, a field shown under a label of its own), use it twice, open it, edit
 * the definition once and see both instances follow, come back by the breadcrumb, and run.
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
  });
});
