import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import { downloadBytes } from './pages/editor';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-unknown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a node type this build does not know', () => {
  it('opens as a placeholder showing its parameters, and is saved back exactly as written', async () => {
    const editor = await session.open();
    const upscale = { id: 'up', type: 'upscale-4x', position: { x: 320, y: 40 }, params: { factor: 4, model: 'svc:esrgan' } };
    const file = {
      format: 'atelier.workflow', version: 1,
      metadata: { title: 'From a newer build', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
      nodes: [{ id: 'words', type: 'text', position: { x: 0, y: 40 }, params: { text: 'a harbour at dawn' } }, upscale],
      edges: [],
    };
    const path = join(dir, 'newer.json');
    writeFileSync(path, JSON.stringify(file));
    await editor.open(path);

    const report = editor.problemsDialog;
    await report.waitFor();
    expect(await report.textContent()).toMatch(/upscale-4x/);
    await report.getByRole('button', { name: 'OK' }).click();

    const unknown = editor.page.locator('.react-flow__node[data-id="up"]');
    await unknown.getByText('This build does not know the type').waitFor();
    const shown = JSON.parse((await unknown.getByLabel('Parameters, as written in the file').textContent()) ?? '{}') as unknown;
    expect(shown).toEqual(upscale.params);
    expect(await editor.nodes.count()).toBe(2);

    const saved = JSON.parse((await downloadBytes(await editor.save())).toString('utf8')) as { nodes: { id: string }[] };
    expect(saved.nodes.find((n) => n.id === 'up')).toEqual(upscale);
  });
});
