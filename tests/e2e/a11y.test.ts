/**
 * The editor for people who use a keyboard or a screen reader: ports are tab stops and wire
 * with Enter, nodes and wires are named by their titles, and an automated scan (axe-core) finds
 * no serious or critical issue on the main screens.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { openHistory, runAndWait } from '../run/run-page';
import { writeChainFile } from './chain-file';
import { editorSession } from './fixtures';
import { MaskPainterDialog } from './pages/mask-painter';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-a11y-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical findings of axe-core on the page as it is now: "rule: where". */
async function seriousIssues(page: Page): Promise<string[]> {
  // Through the devtools channel: the page's own policy allows no injected script.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id}: ${JSON.stringify(n.target)}`));
  });
}

/** Presses Tab until `done` holds for the focused element, at most `max` times. */
async function tabUntil(page: Page, done: () => Promise<boolean>, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await done()) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reached with ${max} presses of Tab`);
}

describe('accessibility', () => {
  it('wires two nodes with the keyboard only, announcing each step, and names the wire by titles', async () => {
    const editor = await session.open();
    const { page } = editor;
    await editor.newWorkflow();
    for (const type of ['Text', 'Text to image']) {
      await editor.clickCanvas();
      await page.keyboard.press('ControlOrMeta+k');
      await page.keyboard.type(type, { delay: 20 });
      await page.keyboard.press('Enter');
      await editor.node(type).root.waitFor();
    }
    await editor.fitView();
    const text = editor.node('Text');
    const draw = editor.node('Text to image');
    const status = page.locator('[role="status"][aria-live="polite"][aria-atomic="true"]');

    // From the Text node, Tab reaches its output port; Enter starts the wire there.
    await text.root.focus();
    await tabUntil(page, () => text.output('Text').evaluate((el) => el === document.activeElement));
    await page.keyboard.press('Enter');
    await expect.poll(() => status.textContent()).toMatch(/^Wiring from Text: Text\. /);
    expect(await text.output('Text').getAttribute('aria-pressed')).toBe('true');

    // Escape drops it; Enter again starts it anew.
    await page.keyboard.press('Escape');
    await expect.poll(() => status.textContent()).toBe('Wire cancelled');
    await page.keyboard.press('Enter');

    // On to the image node: its prompt becomes an input port with "Prompt as input" (a key press
    // does not drop the wire under way), then Enter on that port makes the wire.
    await draw.root.focus();
    const asInput = draw.root.getByRole('button', { name: 'Prompt as input', exact: true });
    await tabUntil(page, () => asInput.evaluate((el) => el === document.activeElement));
    await page.keyboard.press('Enter');
    await draw.input('Prompt').waitFor();
    await draw.root.focus();
    await tabUntil(page, () => draw.input('Prompt').evaluate((el) => el === document.activeElement));
    await page.keyboard.press('Enter');
    await expect.poll(() => status.textContent()).toBe('Connected Text: Text to Text to image: Prompt');
    await page.getByRole('group', { name: 'Wire from Text: Text to Text to image: Prompt' }).or(page.getByLabel('Wire from Text: Text to Text to image: Prompt')).first().waitFor({ state: 'attached' });

    // A second node of a type gets a name of its own.
    await editor.clickCanvas();
    await page.keyboard.press('ControlOrMeta+k');
    await page.keyboard.type('Text to image', { delay: 20 });
    await page.keyboard.press('Enter');
    await editor.node('Text to image 2').root.waitFor();

    // Selecting a node says which.
    await editor.fitView();
    await text.root.click({ position: { x: 20, y: 10 } });
    await expect.poll(() => status.textContent()).toBe('Selected: Text');
  });

  it('builds the starter from scratch and runs it with the keyboard only: no pointer, no programmatic focus', async () => {
    const editor = await session.open();
    const { page } = editor;
    const focused = (locator: Locator) => () => locator.evaluate((el) => el === document.activeElement).catch(() => false);
    const backUntil = async (done: () => Promise<boolean>, max = 60) => {
      for (let i = 0; i < max; i++) {
        if (await done()) return;
        await page.keyboard.press('Shift+Tab');
      }
      throw new Error(`not reached with ${max} presses of Shift+Tab`);
    };
    const status = page.locator('[role="status"][aria-live="polite"][aria-atomic="true"]');

    // File → New workflow.
    await tabUntil(page, focused(page.getByRole('button', { name: 'File', exact: true })));
    await page.keyboard.press('Enter');
    await expect.poll(focused(page.getByRole('menuitem', { name: 'New workflow' }))).toBe(true);
    await page.keyboard.press('Enter');
    await editor.nodes.first().waitFor({ state: 'detached' });

    // Four nodes from the palette; the keyboard lands on each new node.
    const add = async (search: string, title: string) => {
      await page.keyboard.press('ControlOrMeta+k');
      await page.keyboard.type(search, { delay: 20 });
      await page.keyboard.press('Enter');
      await expect.poll(focused(editor.node(title).root), { message: `${title} has the keyboard` }).toBe(true);
      return editor.node(title);
    };
    const chat = await add('Chat prompt writer', 'Chat prompt writer');
    await tabUntil(page, focused(chat.field('User message')));
    await page.keyboard.type('A lighthouse on a cliff at dusk', { delay: 5 });
    const draw = await add('Text to image', 'Text to image');
    const restyle = await add('Image to image', 'Image to image');
    await tabUntil(page, focused(restyle.field('Prompt')));
    await page.keyboard.type('the same scene as a watercolor painting', { delay: 5 });
    const preview = await add('Preview', 'Preview / save');

    // Wires, each: Enter on an output, Tab to an input, Enter.
    await backUntil(focused(chat.output('Text')));
    await page.keyboard.press('Enter');
    await tabUntil(page, focused(draw.root.getByRole('button', { name: 'Prompt as input', exact: true })));
    await page.keyboard.press('Enter');
    // The new port is in the node's port rows, above its form.
    await backUntil(focused(draw.input('Prompt')));
    await page.keyboard.press('Enter');
    await expect.poll(() => status.textContent()).toBe('Connected Chat prompt writer: Text to Text to image: Prompt');
    for (const [from, to, label] of [[draw, restyle, 'Image'], [restyle, preview, 'Value']] as const) {
      await tabUntil(page, focused(from.output('Image')));
      await page.keyboard.press('Enter');
      await tabUntil(page, focused(to.input(label)));
      await page.keyboard.press('Enter');
      await expect.poll(() => status.textContent()).toBe(`Connected ${from.title}: Image to ${to.title}: ${label}`);
    }
    expect(await page.locator('.react-flow__edge').count()).toBe(3);

    // Run it, and the picture at the end comes from the whole chain.
    expect(await runAndWait(editor, () => page.keyboard.press('ControlOrMeta+Enter'))).toBe('Run finished');
    for (const node of [chat, draw, restyle, preview]) expect(await node.phase(), `${node.title} ran`).toBe('done');
    await expect.poll(() => preview.images.count()).toBe(1);
    expect(await preview.imageSha256()).toBe(await restyle.imageSha256());
  });

  it('opens the palette with Ctrl+K from a text field', async () => {
    const editor = await session.open();
    await editor.fitView();
    const field = editor.node('Subject').field('Text').or(editor.page.locator('.react-flow__node textarea').first()).first();
    await field.click();
    await editor.page.keyboard.press('ControlOrMeta+k');
    await editor.paletteSearch.waitFor();
    expect(await editor.paletteSearch.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('finds no serious or critical issue on the starter before and after a run, the settings, the history, the viewer and the mask painter', async () => {
    const editor = await session.open();
    const { page } = editor;
    await editor.fitView();
    expect(await seriousIssues(page), 'the starter').toEqual([]);

    expect(await runAndWait(editor, () => editor.run())).toMatch(/^Run finished/);
    await editor.fitView();
    expect(await seriousIssues(page), 'the starter after a run').toEqual([]);

    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('dialog', { name: /Settings/ }).waitFor();
    expect(await seriousIssues(page), 'the settings').toEqual([]);
    await page.keyboard.press('Escape');

    await openHistory(editor);
    await page.getByRole('region', { name: 'Run history' }).getByRole('article').first().waitFor();
    expect(await seriousIssues(page), 'the history').toEqual([]);

    const image = page.getByRole('button', { name: /^Open image \d+ of / }).first();
    await image.click();
    await page.getByRole('dialog').last().waitFor();
    expect(await seriousIssues(page), 'the image viewer').toEqual([]);
    await page.keyboard.press('Escape');

    await editor.open(writeChainFile(dir, {
      title: 'Mask a11y', file: 'mask-a11y.json', draw: 'a green meadow',
      then: { id: 'fix', type: 'inpaint', title: 'Fix', prompt: 'a red kite' },
    }));
    await editor.fitView();
    const painter = await MaskPainterDialog.open(editor.node('Fix'));
    await painter.dialog.getByRole('button').first().waitFor();
    expect(await seriousIssues(page), 'the mask painter').toEqual([]);
  });
});
