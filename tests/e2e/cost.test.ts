import { describe, expect, it } from 'vitest';
import { figureText, runAndWait, runCount, sessionTotals, settledEstimate } from '../run/run-page';
import { editorSession } from './fixtures';

const session = editorSession();

describe('the cost of a run, before it runs', () => {
  it('counts calls, images and price units: more images multiply, a premium sampler doubles, cached nodes are free, a batch adds what changes', async () => {
    const editor = await session.open();
    await editor.newWorkflow();
    const draw = await editor.addNode('Text to image', { x: 200, y: 120 });
    await draw.field('Prompt').fill('a lighthouse at dusk');
    await draw.root.getByLabel('Random', { exact: true }).uncheck();

    let estimate = await settledEstimate(editor);
    expect(await figureText(estimate, 'API calls')).toBe('1');
    expect(await figureText(estimate, 'Images')).toBe('1');
    expect(await figureText(estimate, 'Price units')).toBe('1');

    await draw.field('Images').fill('3');
    await draw.field('Images').blur();
    await expect.poll(async () => figureText(await settledEstimate(editor), 'Images')).toBe('3');
    expect(await figureText(estimate, 'Price units')).toBe('3');

    await draw.moreOptions();
    await draw.field('Sampler').selectOption('KLMS');
    await expect.poll(async () => figureText(await settledEstimate(editor), 'Price units')).toBe('6');
    await estimate.getByText('Per node').click();
    expect(await estimate.getByRole('listitem').first().textContent()).toBe('Text to image: 3 images, 6 units (premium sampler, 2×)');

    expect(await editor.runToEnd()).toBe('Run finished');
    estimate = await settledEstimate(editor);
    expect(await figureText(estimate, 'API calls')).toBe('0');
    expect(await figureText(estimate, 'Price units')).toBe('0');
    expect(await figureText(estimate, 'Cached (free)')).toBe('1 node (1 call saved)');
    expect(await figureText(sessionTotals(editor), 'Images made')).toBe('3 (6 price units)');

    // Three runs with the seed moving on: the first comes from the cache, the next two are new.
    await draw.field('After each run').selectOption('increment');
    await runCount(editor).fill('3');
    await expect.poll(async () => (await settledEstimate(editor)).getByRole('heading').textContent()).toBe('Cost of 3 runs');
    estimate = await settledEstimate(editor);
    expect(await figureText(estimate, 'API calls')).toBe('2');
    expect(await figureText(estimate, 'Images')).toBe('6');
    expect(await figureText(estimate, 'Price units')).toBe('12');
  });

  it('says honestly what is known only once an upstream node has run', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const estimate = await settledEstimate(editor);
    expect(await figureText(estimate, 'API calls')).toBe('2 (1 chat call, 1 image call)');
    expect(await figureText(estimate, 'Images')).toBe('2');
    expect(await figureText(estimate, 'Chat tokens')).toBe('up to 120');
    expect(await figureText(estimate, 'Known after upstream runs')).toBe('2 nodes, counted as running');

    expect(await runAndWait(editor, () => editor.run())).toBe('Run finished');
    const after = await settledEstimate(editor);
    expect(await figureText(after, 'API calls')).toBe('0');
    expect(await figureText(after, 'Cached (free)')).toBe('4 nodes (2 calls saved)');
    expect(await after.getByText('Known after upstream runs').count()).toBe(0);
  });

  it('says before the run that a wired prompt is over the engine\'s token limit, and leads to the node', async () => {
    const editor = await session.open();
    await editor.openExample('Fan-out: SDXL and SD 1.5');
    const prompt = editor.node('Prompt');
    await editor.inspect(prompt);
    // 120 one-token words: over SDXL's 77, within SD 1.5's 231.
    await prompt.field('Text').fill(Array.from({ length: 120 }, () => 'fox').join(' '));
    await prompt.field('Text').blur();
    const estimate = await settledEstimate(editor);
    const warning = estimate.getByRole('status');
    await expect.poll(async () => warning.textContent()).toContain('A node would fail before sending anything');
    expect(await warning.textContent()).toMatch(/SDXL.*Prompt: has 120 tokens, over the SDXL limit of 77/);
    expect(await figureText(estimate, 'API calls')).toBe('1');
    await warning.getByRole('button').click();
    await expect.poll(async () => editor.node('SDXL').root.evaluate((el) => el.closest('.react-flow__node')?.classList.contains('selected'))).toBe(true);
  });
});
