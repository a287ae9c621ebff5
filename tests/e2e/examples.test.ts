import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/server-process';
import type { Workflow } from '../../workflow/schema';
import { editorSession } from './fixtures';

const session = editorSession();
const dir = join(PROJECT_ROOT, 'public', 'examples');
const examples = (JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { file: string; title: string }[]).map((entry) => ({
  ...entry,
  workflow: JSON.parse(readFileSync(join(dir, entry.file), 'utf8')) as Workflow,
}));
/** Examples with a ComfyUI workflow node run on a ComfyUI backend only (comfy-workflow.test.ts runs one). */
const onComfyUi = (e: { workflow: Workflow }) => e.workflow.nodes.some((n) => n.type === 'comfy-workflow');
const IMAGE_TYPES = new Set(['text-to-image', 'image-to-image', 'inpaint', 'controlnet', 'merge']);

describe('the Examples menu', () => {
  it('lists every example the server ships', async () => {
    const editor = await session.open();
    await editor.page.getByRole('button', { name: 'Examples', exact: true }).click();
    const items = editor.page.getByRole('menuitem');
    await expect.poll(() => items.count()).toBe(examples.length);
    for (const { title } of examples) expect(await editor.page.getByRole('menuitem', { name: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }).count()).toBe(1);
  });

  it.each(examples.filter((e) => !onComfyUi(e)).map((e) => [e.title, e] as const))('opens %s and runs it to the end on the local engines', async (_title, example) => {
    const editor = await session.open();
    await editor.openExample(example.title);
    await editor.fitView();
    await expect.poll(() => editor.nodes.count()).toBe(example.workflow.nodes.length);
    expect(await editor.workflowTitle.inputValue()).toBe(example.workflow.metadata.title);
    // Nodes that make pictures keep a place for them: their height (unscaled) before the run.
    const stageHeights = () => editor.page.locator('.react-flow__node:has(.results--stage)').evaluateAll((els) =>
      Object.fromEntries(els.map((el) => [el.getAttribute('data-id'), (el as HTMLElement).offsetHeight])));
    const before = await stageHeights();
    expect(Object.keys(before).length, 'nodes that make pictures').toBeGreaterThan(0);

    expect(await editor.runToEnd(120_000)).toBe('Run finished');
    // Results arrived in the nodes: none of them covers another, and no picture made its node taller.
    await editor.fitView();
    expect(await editor.overlaps(), 'nodes covering others after the run').toEqual([]);
    expect(await stageHeights(), 'heights of the nodes that make pictures, after the run').toEqual(before);
    for (const node of example.workflow.nodes) {
      const view = editor.node(node.title ?? node.id);
      await editor.fitView();
      expect(await view.phase(), `${node.title ?? node.id} ran`).toMatch(/^(done|cached)$/);
      if (IMAGE_TYPES.has(node.type)) {
        await editor.inspect(view);
        const perRun = typeof node.params.num_images === 'number' ? node.params.num_images : 1;
        // A node that ran once per item of a list shows every item's images.
        const items = view.root.getByLabel(`Items of ${node.title ?? node.id}`, { exact: true });
        const runs = (await items.count()) === 0 ? 1 : Number(/^(\d+) of /.exec((await items.first().textContent()) ?? '')?.[1]);
        await expect.poll(() => view.images.count(), { message: `${node.title ?? node.id} shows its images` }).toBe(perRun * runs);
      }
    }
  });

  it('a ComfyUI example on the local engines says before the run which node needs a ComfyUI backend and where to choose one; that node fails, the rest runs', async () => {
    const example = examples.find(onComfyUi)!;
    const editor = await session.open();
    await editor.openExample(example.title);
    const comfyNode = example.workflow.nodes.find((n) => n.type === 'comfy-workflow')!;
    const wouldFail = editor.runPanel.locator('.run-estimate__fails');
    await expect.poll(() => wouldFail.textContent()).toContain(comfyNode.title);
    expect(await wouldFail.textContent()).toContain('needs a ComfyUI backend: choose ComfyUI in Settings → Image backend');
    expect(await editor.runToEnd(120_000)).toBe('Run finished with failures');
    expect(await editor.runProblems.count()).toBe(0);
    await expect.poll(() => editor.node(comfyNode.title!).error.textContent()).toContain('needs a ComfyUI backend');
  });

  it('opening another workflow after a run leaves nothing of that run on the page, and Undo brings the graph back without it', async () => {
    const editor = await session.open();
    expect(await editor.runToEnd()).toBe('Run finished');
    await expect.poll(() => editor.page.locator('.run-status__badge').count()).toBeGreaterThan(0);

    await editor.openExample(examples[0]!.title);
    await expect.poll(() => editor.lastRun.count()).toBe(0);
    expect(await editor.page.locator('.run-status__badge').count()).toBe(0);
    expect(await editor.page.locator('.results__thumb img').count()).toBe(0);

    await editor.undo();
    await expect.poll(() => editor.workflowTitle.inputValue()).not.toBe(examples[0]!.workflow.metadata.title);
    expect(await editor.lastRun.count()).toBe(0);
    expect(await editor.page.locator('.run-status__badge').count()).toBe(0);
  });
});
