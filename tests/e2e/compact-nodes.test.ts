/**
 * Compact nodes: a node shows its main fields, the inspector beside the canvas shows every field
 * of the selected node, a node collapses to its title bar and ports (kept in the file), and
 * titles are always whole.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Workflow } from '../../workflow/schema';
import { editorSession } from './fixtures';
import { downloadBytes, type EditorPage } from './pages/editor';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-compact-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How far each wire's two ends are from the nearest port handle, in screen pixels (the worst of them). */
async function wireEndGap(editor: EditorPage): Promise<number> {
  return editor.page.evaluate(() => {
    const centres = [...document.querySelectorAll('.react-flow__handle')].map((h) => {
      const r = h.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    });
    let worst = 0;
    for (const path of document.querySelectorAll<SVGPathElement>('.react-flow__edge-path')) {
      const matrix = path.getScreenCTM();
      if (!matrix) return Infinity;
      for (const at of [0, path.getTotalLength()]) {
        const p = new DOMPoint(path.getPointAtLength(at).x, path.getPointAtLength(at).y).matrixTransform(matrix);
        worst = Math.max(worst, Math.min(...centres.map((c) => Math.hypot(c.x - p.x, c.y - p.y))));
      }
    }
    return worst;
  });
}

describe('compact nodes', () => {
  it('show their main fields; the inspector shows the rest of the selected node, and an edit there takes effect in the run', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    await editor.clickCanvas();
    await editor.inspector.getByText('Select a node to see all its settings').waitFor();

    const draw = editor.node('Draw it (SDXL)');
    // On the node: the prompt and a few others, not the sampler or the seed's "after each run".
    await draw.field('Negative prompt').waitFor();
    expect(await draw.field('Sampler').count()).toBe(0);
    expect(await draw.field('After each run').count()).toBe(0);
    expect(await draw.moreToggle.textContent()).toBe('More options');

    const mode = await editor.setting('Draw it (SDXL)', 'After each run');
    await expect.poll(() => editor.inspector.getByLabel('Sampler', { exact: true }).count()).toBe(1);
    await mode.selectOption('increment');
    expect(await editor.runToEnd()).toBe('Run finished');
    // The seed moved on after the run, as the inspector's choice says; the node shows it too.
    await expect.poll(() => draw.field('Seed').inputValue()).toBe('1235');
    await expect.poll(() => editor.inspector.getByLabel('Seed', { exact: true }).inputValue()).toBe('1235');

    // The same validation under the same field as on the node.
    const steps = editor.inspector.getByLabel('Steps', { exact: true });
    await steps.fill('0');
    await steps.blur();
    await expect.poll(() => editor.inspector.locator('[data-field="steps"] .field-issue').allTextContents()).toEqual(['must be a whole number from 1 to 150']);
    // One edit, undone as one.
    await editor.undo();
    await expect.poll(() => steps.inputValue()).toBe('30');

    // The inspector follows the selection.
    await editor.node('Prompt writer').select();
    await editor.inspector.getByRole('heading', { name: 'Prompt writer', exact: true }).waitFor();
    await expect.poll(() => editor.inspector.getByLabel('Max tokens', { exact: true }).count()).toBe(1);
    // Typing there, Ctrl+Z takes back the whole run of typing, as on the node; the node catches up after.
    const system = editor.inspector.getByLabel('System message', { exact: true });
    const before = await system.inputValue();
    await editor.quiet();
    await system.click();
    await system.press('ControlOrMeta+End');
    await system.pressSequentially(' Be brief.', { delay: 40 });
    const typed = `${before} Be brief.`;
    await expect.poll(() => system.inputValue()).toBe(typed);
    // Typing merges into one undo step while it goes on; a pause of over a second starts another,
    // which a loaded machine can make happen mid-word. So: far fewer steps than the 10 keystrokes.
    let undos = 0;
    for (let value = typed; value !== before && undos < 10; undos++) {
      const shown = value;
      await system.press('ControlOrMeta+z');
      await expect.poll(async () => (value = await system.inputValue())).not.toBe(shown);
    }
    expect(await system.inputValue()).toBe(before);
    expect(undos).toBeLessThanOrEqual(4);
    for (let i = 0; i < undos; i++) await system.press('ControlOrMeta+Shift+z');
    await expect.poll(() => system.inputValue()).toBe(typed);
    await system.blur();
    await expect.poll(() => editor.node('Prompt writer').field('System message').inputValue()).toBe(typed);
    await editor.clickCanvas();
    await editor.inspector.getByText('Select a node to see all its settings').waitFor();
  });

  it('collapse to their title bar and ports with the button or Ctrl+., and stay collapsed in the saved file, wires on their ports', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const draw = editor.node('Draw it (SDXL)');
    await draw.field('Negative prompt').waitFor();
    const wires = await editor.wires.count();
    expect(wires).toBe(3);

    await draw.collapseButton.click();
    await expect.poll(() => draw.collapsed()).toBe(true);
    expect(await draw.root.locator('.node-form').count()).toBe(0);
    expect(await draw.collapseButton.getAttribute('aria-label')).toBe('Expand Draw it (SDXL)');
    expect(await draw.input('Prompt').count()).toBe(1);
    await expect.poll(() => wireEndGap(editor)).toBeLessThan(8);

    // The keyboard folds the selected node too.
    const writer = editor.node('Prompt writer');
    await writer.select();
    await editor.page.keyboard.press('ControlOrMeta+.');
    await expect.poll(() => writer.collapsed()).toBe(true);
    await editor.page.keyboard.press('ControlOrMeta+.');
    await expect.poll(() => writer.collapsed()).toBe(false);

    const saved = JSON.parse((await downloadBytes(await editor.save())).toString('utf8')) as Workflow;
    expect(saved.nodes.find((n) => n.id === 'draw')?.collapsed).toBe(true);
    expect(saved.nodes.filter((n) => 'collapsed' in n).map((n) => n.id)).toEqual(['draw']);
    const file = join(dir, 'collapsed.json');
    writeFileSync(file, JSON.stringify(saved));

    await editor.newWorkflow();
    await editor.open(file);
    await editor.page.getByText(`Opened “${saved.metadata.title}”`).waitFor();
    // The example is an app, so its file opens in App view: back to the graph.
    await editor.showGraph();
    await expect.poll(() => draw.collapsed()).toBe(true);
    expect(await writer.collapsed()).toBe(false);
    expect(await editor.wires.count()).toBe(wires);
    await expect.poll(() => wireEndGap(editor)).toBeLessThan(8);

    // Expanding is an edit like any other: undo folds it again.
    await draw.collapseButton.click();
    await expect.poll(() => draw.collapsed()).toBe(false);
    await draw.field('Negative prompt').waitFor();
    await editor.undo();
    await expect.poll(() => draw.collapsed()).toBe(true);

    // A problem in a collapsed node's field leads there: the node opens, the field has the focus.
    await writer.field('User message').fill('');
    await writer.collapseButton.click();
    await expect.poll(() => writer.collapsed()).toBe(true);
    await editor.run();
    await editor.runProblems.waitFor();
    await editor.clickCanvas();
    await editor.runProblems.getByRole('button', { name: /^Prompt writer: .*user message/i }).click();
    await expect.poll(() => writer.collapsed()).toBe(false);
    await expect.poll(() => writer.field('User message').evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('show the whole title, wrapped, close up and in the overview', async () => {
    const editor = await session.open();
    await editor.openExample('Chat to image');
    const long = 'Prompt writer for the lighthouse series, second draft';
    await editor.page.getByRole('button', { name: 'Rename node Prompt writer' }).click();
    const input = editor.page.getByRole('textbox', { name: 'Node title' });
    await input.fill(long);
    await input.press('Enter');
    const writer = editor.node(long);
    const title = writer.root.locator('.node-title');
    await expect.poll(() => title.textContent()).toBe(long);
    const fits = () => title.evaluate((el) => {
      const node = el.closest('.atelier-node')!.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return el.scrollWidth <= el.clientWidth && box.left >= node.left && box.right <= node.right + 0.5 && getComputedStyle(el).textOverflow !== 'ellipsis';
    });
    expect(await fits()).toBe(true);
    // Wrapped onto more than one line, not cut.
    expect(await title.evaluate((el) => el.getBoundingClientRect().height > parseFloat(getComputedStyle(el).lineHeight || '16') * 1.5)).toBe(true);

    // Zoomed out to the overview, where only titles and ports are drawn (with the canvas's zoom
    // out button: a wheel over a node's form would scroll the form).
    const inOverview = () => writer.root.evaluate((el) => el.matches('.atelier-node.compact') || el.querySelector('.atelier-node.compact') !== null);
    for (let i = 0; i < 30 && !(await inOverview()); i++) {
      await editor.page.getByRole('button', { name: 'Zoom Out' }).click();
      await editor.viewSettled();
    }
    expect(await inOverview()).toBe(true);
    expect(await title.textContent()).toBe(long);
    expect(await fits()).toBe(true);
  });
});
