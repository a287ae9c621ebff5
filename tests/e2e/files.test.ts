import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import { downloadBytes } from './pages/editor';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('files', () => {
  it('saves the workflow as a download that opens again, and clears the unsaved marker', async () => {
    const editor = await session.open();
    await editor.openExample('Restyle chain');
    await editor.workflowTitle.fill('Harbour study');
    await editor.workflowTitle.press('Enter');
    await editor.page.getByRole('img', { name: 'Unsaved changes' }).waitFor();

    const download = await editor.save();
    expect(download.suggestedFilename()).toBe('harbour-study.json');
    const text = (await downloadBytes(download)).toString('utf8');
    const saved = JSON.parse(text) as { format: string; metadata: { title: string }; nodes: unknown[] };
    expect(saved.format).toBe('atelier.workflow');
    expect(saved.metadata.title).toBe('Harbour study');
    // Nodes out of view are not drawn: count them with the whole workflow in view.
    await editor.fitView();
    expect(saved.nodes.length).toBe(await editor.nodes.count());
    await editor.page.getByRole('img', { name: 'All changes saved' }).waitFor();

    // What was saved opens again, as the same workflow.
    const path = join(dir, 'harbour-study.json');
    writeFileSync(path, text);
    await editor.newWorkflow();
    await editor.open(path);
    await expect.poll(() => editor.workflowTitle.inputValue()).toBe('Harbour study');
  });

  it('finds the work again after a reload, from the autosave', async () => {
    const editor = await session.open();
    await editor.newWorkflow();
    await editor.workflowTitle.fill('Kept across reloads');
    await editor.workflowTitle.press('Enter');
    const text = await editor.addNode('Text', { x: 200, y: 150 });
    await text.field('Text').fill('still here after the reload');
    // Autosave writes within about a second of the last change.
    await editor.page.waitForTimeout(1500);

    await editor.page.reload();
    await editor.pane.waitFor();

    await expect.poll(() => editor.workflowTitle.inputValue()).toBe('Kept across reloads');
    await expect.poll(() => editor.nodes.count()).toBe(1);
    expect(await editor.node('Text').field('Text').inputValue()).toBe('still here after the reload');
    expect(await editor.page.getByRole('img', { name: 'Unsaved changes' }).count()).toBe(1);
  });

  it('refuses a broken file with a readable list of what is wrong, and keeps the graph', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const nodes = await editor.nodes.count();

    const dialog = editor.problemsDialog;
    const meta = { title: 'Broken', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' };
    /** Opens `content` as `name` and returns the problems the dialog lists. */
    const refused = async (name: string, content: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(content));
      await editor.open(path);
      await dialog.waitFor();
      expect(await dialog.getByRole('heading').first().textContent()).toBe(`'${name}' was not opened`);
      expect(await dialog.getByText('Your current workflow is unchanged.', { exact: false }).count()).toBe(1);
      return (await dialog.getByRole('listitem').allTextContents()).join('\n');
    };

    // Wrong shapes, each named by where it is.
    const shapes = await refused('shapes.json', {
      format: 'atelier.workflow', version: 1, metadata: meta,
      nodes: [{ id: 'bad id!', type: 'text', position: { x: 'left', y: 0 }, params: {} }],
      edges: [],
    });
    expect(shapes).toMatch(/nodes\[0\]\.id/);
    expect(shapes).toMatch(/nodes\[0\]\.position\.x/);
    expect(await dialog.locator('p').first().textContent()).toBe('The workflow file cannot be opened (2 problems). Your current workflow is unchanged.');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });

    // A graph that does not hold together: every problem at once.
    const graph = await refused('graph.json', {
      format: 'atelier.workflow', version: 1, metadata: meta,
      nodes: [{ id: 'a', type: 'text', position: { x: 0, y: 0 }, params: {} }, { id: 'a', type: 'preview', position: { x: 300, y: 0 }, params: {} }],
      edges: [{ id: 'e1', source: { node: 'a', port: 'text' }, target: { node: 'missing', port: 'value' } }],
    });
    expect(graph).toMatch(/duplicate node id 'a'/);
    expect(graph).toMatch(/no node 'missing'/);

    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await editor.workflowTitle.inputValue()).toBe('Chat to image');
    expect(await editor.nodes.count()).toBe(nodes);

    // Not JSON at all: refused the same way.
    const garbage = join(dir, 'garbage.json');
    writeFileSync(garbage, '{ "format": "atelier.workflow", "nodes": [ ');
    await editor.open(garbage);
    await dialog.waitFor();
    expect(await dialog.getByRole('heading').first().textContent()).toBe("'garbage.json' was not opened");
    expect(await dialog.locator('p').first().textContent()).toBe('The workflow file is not valid JSON (1 problem). Your current workflow is unchanged.');
    await editor.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await editor.workflowTitle.inputValue()).toBe('Chat to image');
  });
});
