/**
 * Sharing safely: what looks like a credential is named before a workflow leaves the page (Save,
 * copying nodes) and removed on request; nodes copied in one page paste in another; a file
 * holding credentials is reported on load in a readable list.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import { downloadBytes } from './pages/editor';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-share-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'sk-proj-Q3x9Vb7Lm2Tn8Rw4Ky6Pz1Hd5Fj0Gs3A';

describe('sharing safely', () => {
  it('names a key pasted into a prompt before Save, and saves without it on request (the canvas too, undoable)', async () => {
    const editor = await session.open();
    const { page } = editor;
    await editor.newWorkflow();
    const draw = await editor.addNode('Text to image', { x: 200, y: 120 });
    const prompt = draw.field('Prompt');
    await prompt.fill(`a castle at dawn, key ${KEY}`);
    await prompt.blur();

    const check = page.getByRole('dialog', { name: 'This workflow may hold credentials' });
    await editor.menu('File', /^Save/);
    await check.waitFor();
    const listed = check.getByRole('list', { name: 'What looks like a credential' });
    expect(await listed.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^Prompt of “Text to image”an API key \(sk-…\) sk-…\(\d+ chars\)$/),
    ]);
    expect(await check.textContent()).not.toContain(KEY);

    // Cancel: nothing is written, nothing changes.
    await check.getByRole('button', { name: 'Cancel' }).click();
    await check.waitFor({ state: 'detached' });
    await page.getByText('Not saved: the file was not written').waitFor();
    expect(await prompt.inputValue()).toContain(KEY);

    await editor.menu('File', /^Save/);
    const download = page.waitForEvent('download');
    await check.getByRole('button', { name: 'Save without them' }).click();
    const text = (await downloadBytes(await download)).toString('utf8');
    expect(text).not.toContain(KEY);
    expect(text).toContain('a castle at dawn, key [removed]');
    await expect.poll(() => prompt.inputValue()).toBe('a castle at dawn, key [removed]');
    await editor.undo();
    await expect.poll(() => prompt.inputValue()).toContain(KEY);
  });

  it('nodes copied in one page paste in another; a key in them is named first and left out on request', async () => {
    const source = await session.open();
    const target = await session.open();
    await source.newWorkflow();
    await target.newWorkflow();

    const clean = await source.addNode('Text', { x: 200, y: 150 });
    await clean.field('Text').fill('a lighthouse in fog');
    await clean.select();
    await source.page.keyboard.press('ControlOrMeta+c');
    await target.pane.click({ position: { x: 300, y: 300 } });
    await target.page.keyboard.press('ControlOrMeta+v');
    await expect.poll(() => target.nodes.count()).toBe(1);
    expect(await target.node('Text').field('Text').inputValue()).toBe('a lighthouse in fog');
    // Pasting again does not land on top of the first paste.
    await target.page.keyboard.press('ControlOrMeta+v');
    await expect.poll(() => target.nodes.count()).toBe(2);
    const boxes = await target.nodes.evaluateAll((els) => els.map((el) => (el as HTMLElement).style.transform));
    expect(new Set(boxes).size).toBe(2);

    await clean.field('Text').fill(`call it with Bearer ${KEY}`);
    await clean.select();
    await source.page.keyboard.press('ControlOrMeta+c');
    const check = source.page.getByRole('dialog', { name: 'This workflow may hold credentials' });
    await check.waitFor();
    expect(await check.getByRole('listitem').allTextContents()).toEqual([expect.stringMatching(/^Text of “Text”a bearer token/)]);
    await check.getByRole('button', { name: 'Copy without them' }).click();
    await source.page.getByText('Copied without what looked like credentials').waitFor();
    // The canvas the copy came from keeps its text.
    expect(await clean.field('Text').inputValue()).toContain(KEY);

    await target.pane.click({ position: { x: 900, y: 650 } });
    await target.page.keyboard.press('ControlOrMeta+v');
    await expect.poll(() => target.nodes.count()).toBe(3);
    // The new node's form is drawn a moment after the node itself.
    const values = () => target.page.getByRole('textbox', { name: 'Text', exact: true }).evaluateAll((els) => els.map((el) => (el as HTMLTextAreaElement).value));
    await expect.poll(values).toContain('call it with [removed]');
    expect((await values()).join('\n')).not.toContain(KEY);
  });

  it('reports a file holding credentials on load, each by node and field, and says a file cannot redirect requests', async () => {
    const editor = await session.open();
    const path = join(dir, 'borrowed.json');
    writeFileSync(path, JSON.stringify({
      format: 'atelier.workflow',
      version: 1,
      metadata: { title: 'Borrowed', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
      nodes: [
        { id: 'draw', type: 'text-to-image', title: 'Hero shot', position: { x: 0, y: 0 }, params: { prompt: `castle ${KEY}`, api_key: 'hunter2hunter2hunter2', base_url: 'https://elsewhere.example' } },
      ],
      edges: [],
    }));
    await editor.open(path);
    const dialog = editor.problemsDialog;
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').first().textContent()).toBe('Opened “Borrowed”, with 3 warnings');
    const summary = (await dialog.locator('p').first().textContent()) ?? '';
    expect(summary).toMatch(/held what looks like credentials/);
    expect(summary).toMatch(/2 fields named or shaped like a key, token or endpoint were removed/);
    expect(summary).toMatch(/A workflow cannot change where requests go/);
    const items = await dialog.getByRole('listitem').allTextContents();
    expect(items.slice(0, 3)).toEqual([
      expect.stringMatching(/^Prompt of “Hero shot”.*kept as written/),
      expect.stringMatching(/^api_key of “Hero shot”.*removed/),
      expect.stringMatching(/^base_url of “Hero shot”.*removed/),
    ]);
    expect(items.join('\n')).not.toContain(KEY);
    expect(items.join('\n')).not.toContain('hunter2');
  });
});
