import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractWorkflow } from '../../workflow/embed';
import type { Workflow } from '../../workflow/schema';
import { dropFile, history, historyEntries, openHistory, runAndWait } from '../run/run-page';
import { writeChainFile } from './chain-file';
import { editorSession } from './fixtures';
import { downloadBytes, type EditorPage } from './pages/editor';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-seeds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seed control', () => {
  it('"increment" moves the seed on after each run, and consecutive runs undo as one step', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const draw = editor.node('Draw it (SDXL)');
    await draw.moreOptions();
    await draw.field('After each run').selectOption('increment');

    expect(await editor.runToEnd()).toBe('Run finished');
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1235');
    // The images show the seeds they were made with, not the one the next run uses.
    await expect.poll(() => draw.images.first().getAttribute('aria-label')).toBe('Open image 1 of Draw it (SDXL), seed 1234');

    expect(await runAndWait(editor, () => editor.run())).toBe('Run finished');
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1236');
    await expect.poll(() => draw.images.first().getAttribute('aria-label')).toBe('Open image 1 of Draw it (SDXL), seed 1235');

    await editor.undo();
    expect(await draw.field('Seed').inputValue()).toBe('1234');
    expect(await draw.field('After each run').inputValue()).toBe('increment');
  });

  it('"random" picks a new seed after each run', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const draw = editor.node('Draw it (SDXL)');
    await draw.moreOptions();
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
    await draw.moreOptions();
    await draw.field('After each run').selectOption('increment');
    expect(await editor.runToEnd()).toBe('Run finished');
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1235');

    await draw.images.first().click();
    const viewer = editor.page.getByRole('dialog', { name: 'Draw it (SDXL): image 1 of 2' });
    await viewer.getByRole('button', { name: 'Pin this seed' }).click();
    await editor.page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1234');
    await expect.poll(() => draw.field('After each run').inputValue()).toBe('fixed');

    // The preview shows the drawing's second image: its pin goes to the drawing.
    await editor.node('Preview').results.getByRole('button', { name: 'Pin seed 1235 on Draw it (SDXL)' }).click();
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1235');
  });
});

/** Text to image → image to image → preview on SD 1.5, each image node with a fixed seed to begin with. */
const chainFile = () => writeChainFile(dir, {
  title: 'Random chain', file: 'random-chain.json', draw: 'a lighthouse on a cliff',
  then: { id: 'restyle', type: 'image-to-image', title: 'Restyle', prompt: 'an ink drawing' },
});

/** Opens the chain, ticks Random on both image nodes and runs it; the seeds they used and their images' digests. */
async function runWithRandomSeeds(editor: EditorPage): Promise<{ seeds: Record<string, string>; digests: Record<string, string> }> {
  await editor.open(chainFile());
  await editor.page.getByText('Opened “Random chain”').waitFor();
  await editor.fitView();
  for (const title of ['Draw', 'Restyle']) {
    const node = editor.node(title);
    await node.root.getByLabel('Random', { exact: true }).check();
    expect(await node.field('Seed').inputValue()).toBe('random each run');
  }
  expect(await editor.runToEnd()).toBe('Run finished');
  const seeds: Record<string, string> = {};
  const digests: Record<string, string> = {};
  for (const title of ['Draw', 'Restyle']) {
    const node = editor.node(title);
    const label = await node.images.first().getAttribute('aria-label');
    seeds[title] = /, seed (\d+)$/.exec(label ?? '')?.[1] ?? `no seed in '${label}'`;
    digests[title] = await node.imageSha256();
  }
  return { seeds, digests };
}

/** The seeds the workflow on the canvas holds now, and what it does with them after a run. */
async function seedFields(editor: EditorPage): Promise<Record<string, [string, string]>> {
  const out: Record<string, [string, string]> = {};
  for (const title of ['Draw', 'Restyle']) {
    const node = editor.node(title);
    await node.moreOptions();
    out[title] = [await node.field('Seed').inputValue(), await node.field('After each run').inputValue()];
  }
  return out;
}

/** Runs what is on the canvas and gives its images' digests. */
async function runAgain(editor: EditorPage): Promise<Record<string, string>> {
  expect(await runAndWait(editor, () => editor.run())).toBe('Run finished');
  return { Draw: await editor.node('Draw').imageSha256(), Restyle: await editor.node('Restyle').imageSha256() };
}

describe('a random seed comes back', () => {
  it('a downloaded image carries the seeds the run used, fixed; dropped back and run, it makes the same pictures', async () => {
    const editor = await session.open();
    const { seeds, digests } = await runWithRandomSeeds(editor);
    expect(Object.values(seeds).every((seed) => /^\d+$/.test(seed)), JSON.stringify(seeds)).toBe(true);

    const download = editor.page.waitForEvent('download');
    await editor.node('Restyle').results.getByRole('button', { name: 'Download image 1 of Restyle' }).click();
    const file = await download;
    const bytes = await downloadBytes(file);
    const embedded = JSON.parse(extractWorkflow(bytes)!.workflow!) as Workflow;
    expect(embedded.nodes.filter((n) => n.id !== 'show').map((n) => [n.title, String(n.params.seed), n.params.seed_mode])).toEqual([
      ['Draw', seeds.Draw, 'fixed'],
      ['Restyle', seeds.Restyle, 'fixed'],
    ]);
    // The workflow being edited still picks a new seed every run.
    expect(await seedFields(editor)).toEqual({ Draw: ['random each run', 'fixed'], Restyle: ['random each run', 'fixed'] });

    await editor.newWorkflow();
    await dropFile(editor.page, bytes, file.suggestedFilename(), 'image/jpeg');
    await expect.poll(() => editor.nodes.count()).toBe(3);
    expect(await seedFields(editor)).toEqual({ Draw: [seeds.Draw, 'fixed'], Restyle: [seeds.Restyle, 'fixed'] });
    expect(await runAgain(editor)).toEqual(digests);
  });

  it("History → Open this run's workflow brings the seeds the run used, fixed, and runs to the same pictures", async () => {
    const editor = await session.open();
    await openHistory(editor);
    const { seeds, digests } = await runWithRandomSeeds(editor);
    await expect.poll(() => historyEntries(editor).count()).toBe(2);

    await editor.newWorkflow();
    const entry = history(editor).getByRole('article', { name: new RegExp(`^Restyle, image, seed ${seeds.Restyle}, `) });
    await entry.getByRole('button', { name: 'Open this run\'s workflow' }).click();
    await expect.poll(() => editor.nodes.count()).toBe(3);
    expect(await seedFields(editor)).toEqual({ Draw: [seeds.Draw, 'fixed'], Restyle: [seeds.Restyle, 'fixed'] });
    expect(await runAgain(editor)).toEqual(digests);
  });
});
