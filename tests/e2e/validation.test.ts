import { describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';

const session = editorSession();

const isFocused = (el: Element) => el === document.activeElement;

describe('problems before a run', () => {
  it('are listed together, nothing is sent, and each one leads to its node and field', async () => {
    const editor = await session.open();
    await editor.newWorkflow();
    const chat = await editor.addNode('Chat prompt writer', { x: 100, y: 100 });
    const restyle = await editor.addNode('Image to image', 'right-edge');
    await editor.fitView();
    await chat.field('User message').fill('');

    await editor.run();

    const problems = editor.runProblems;
    await problems.waitFor();
    expect(await problems.getByRole('heading').textContent()).toBe('2 problems to fix before running');
    const items = problems.getByRole('button');
    expect(await items.count()).toBe(2);
    expect(await editor.lastRun.getByRole('heading').textContent()).toBe('Run refused: nothing was sent');
    expect(await chat.status.textContent()).toBe('Cannot run');
    expect(await restyle.status.textContent()).toBe('Cannot run');

    // Away from the field first, so that focusing it is the problem's doing.
    await editor.clickCanvas();
    await problems.getByRole('button', { name: /^Chat prompt writer: .*user message/i }).click();
    await expect.poll(() => chat.field('User message').evaluate(isFocused)).toBe(true);

    await problems.getByRole('button', { name: /^Image to image: input 'Image'/ }).click();
    await expect.poll(() => restyle.root.evaluate((el) => el.contains(document.activeElement))).toBe(true);

    // Fixing one (back at its node: the last problem's node is the one in view) leaves the other on the list at the next try.
    await editor.inspect(chat);
    await chat.field('User message').fill('A fox in the snow.');
    await editor.run();
    await expect.poll(() => problems.getByRole('heading').textContent()).toBe('1 problem to fix before running');
    expect(await chat.status.count()).toBe(0);
  });

  it('lead to the field itself, not to its "as input" switch, so what is typed next goes into the field', async () => {
    const editor = await session.open();
    await editor.newWorkflow();
    const draw = await editor.addNode('Text to image', { x: 120, y: 120 });
    const prompt = draw.field('Prompt');
    // A new node's empty prompt is said beside its count; the service would take it and draw blind.
    await expect.poll(() => draw.root.getByText(/^Empty: the engine gets no prompt to follow · 0 \/ 77 tokens$/).count()).toBe(1);
    // Over the engine's 77 tokens: a problem with the prompt, whose field has an "as input" switch.
    await prompt.fill(Array.from({ length: 90 }, () => 'gull').join(' '));
    await expect.poll(() => draw.root.getByText(/^⚠ 90 \/ 77 tokens: over the engine's limit by 13$/).count()).toBe(1);
    expect(await draw.root.getByText(/^Empty:/).count()).toBe(0);

    await editor.run();
    await editor.clickCanvas();
    await editor.runProblems.getByRole('button', { name: /^Text to image: .*prompt/i }).click();
    await expect.poll(() => prompt.evaluate(isFocused)).toBe(true);

    // "l" would lay the workflow out, were it taken by the canvas.
    await editor.page.keyboard.type(' lighthouse', { delay: 20 });
    expect(await prompt.inputValue()).toContain(' lighthouse');
  });

  it('keep a number out of range in its field, flagged, after focus leaves, and list it', async () => {
    const editor = await session.open();
    await editor.newWorkflow();
    const draw = await editor.addNode('Text to image', { x: 120, y: 120 });
    await editor.inspect(draw);
    await draw.field('Prompt').fill('a lighthouse');
    await draw.root.getByText('More options').click();
    const steps = draw.field('Steps');
    await steps.fill('0');
    await editor.clickCanvas();
    expect(await steps.inputValue()).toBe('0');
    await expect.poll(() => steps.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => draw.root.locator('[data-field="steps"] .field-issue').allTextContents()).toEqual(['must be a whole number from 1 to 150']);

    // Text that is no number is kept too, not put back behind the person's back.
    const cfg = draw.field('CFG scale');
    await cfg.fill('lots');
    await editor.clickCanvas();
    expect(await cfg.inputValue()).toBe('lots');
    await expect.poll(() => cfg.getAttribute('aria-invalid')).toBe('true');

    await editor.run();
    await editor.runProblems.waitFor();
    expect(await editor.runProblems.getByRole('button', { name: /^Text to image: .*steps.*1 to 150/i }).count()).toBe(1);
    expect(await editor.runProblems.getByRole('button', { name: /^Text to image: .*CFG scale/i }).count()).toBe(1);

    // Fixed, the problem goes: the run starts.
    await editor.inspect(draw);
    await steps.fill('20');
    await cfg.fill('7');
    expect(await editor.runToEnd()).toBe('Run finished');
  });
});
