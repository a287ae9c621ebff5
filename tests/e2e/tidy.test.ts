/**
 * Tidying big graphs with the mouse and keyboard: groups that carry their nodes, auto-layout,
 * notes drawn as safe Markdown, the minimap, and bypassing a node on a real run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { editorSession } from './fixtures';
import type { EditorPage } from './pages/editor';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-tidy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Where a canvas item sits, in flow coordinates, from React Flow's transform. */
async function at(item: Locator): Promise<{ x: number; y: number }> {
  const transform = await item.evaluate((el) => (el as HTMLElement).style.transform);
  const match = /translate\((-?[\d.]+)px, ?(-?[\d.]+)px\)/.exec(transform);
  if (!match) throw new Error(`no position in '${transform}'`);
  return { x: Number(match[1]), y: Number(match[2]) };
}

/** Drags with the mouse from the centre of `handle` by (dx, dy) screen pixels. */
async function drag(page: Page, handle: Locator, dx: number, dy: number): Promise<void> {
  const box = await handle.boundingBox();
  if (!box) throw new Error(`not on screen: ${handle.toString()}`);
  const x = box.x + Math.min(40, box.width / 2);
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 8 });
  await page.mouse.move(x + dx, y + dy, { steps: 8 });
  await page.mouse.up();
}

const tools = (editor: EditorPage) => editor.page.getByRole('toolbar', { name: 'Canvas tools' });

/** Opens a workflow written here, as a file. */
async function openFile(editor: EditorPage, name: string, nodes: unknown[], edges: unknown[] = [], notes: unknown[] = []): Promise<void> {
  const meta = { title: name, description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' };
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ format: 'atelier.workflow', version: 1, metadata: meta, nodes, edges, ...(notes.length > 0 ? { notes } : {}) }));
  await editor.open(path);
  await editor.page.getByText(`Opened “${name}”`).waitFor();
  await editor.viewSettled();
}

describe('tidy big graphs', () => {
  it('a group frames the selection, moves its nodes with it as one undo step, and takes in a node dropped inside', async () => {
    const editor = await session.open();
    const { page } = editor;
    await openFile(editor, 'Framing', [
      { id: 'words', type: 'text', title: 'Words', position: { x: 0, y: 0 }, params: { text: 'a fox' } },
      { id: 'show', type: 'preview', title: 'Show', position: { x: 400, y: 0 }, params: {} },
      { id: 'stray', type: 'text', title: 'Stray', position: { x: 900, y: 40 }, params: { text: 'later' } },
    ]);
    const words = editor.node('Words');
    const show = editor.node('Show');
    const stray = editor.node('Stray');
    await words.select();
    await show.root.locator('.node-header .node-title').click({ modifiers: ['Shift'] });
    await tools(editor).getByRole('button', { name: 'Group selection' }).click();
    const frame = page.getByRole('group', { name: 'Group: Group' });
    await frame.waitFor();

    const before = { words: await at(words.root), show: await at(show.root), stray: await at(stray.root), frame: await at(frame) };
    await drag(page, frame.locator('.frame-header'), 120, 160);
    await expect.poll(async () => (await at(frame)).y).toBeGreaterThan(before.frame.y + 50);
    const moved = { words: await at(words.root), show: await at(show.root), frame: await at(frame) };
    const delta = { x: moved.frame.x - before.frame.x, y: moved.frame.y - before.frame.y };
    expect(moved.words).toEqual({ x: before.words.x + delta.x, y: before.words.y + delta.y });
    expect(moved.show).toEqual({ x: before.show.x + delta.x, y: before.show.y + delta.y });
    expect(await at(stray.root)).toEqual(before.stray);

    // One undo puts the frame and both nodes back.
    await editor.undo();
    await expect.poll(() => at(frame)).toEqual(before.frame);
    expect(await at(words.root)).toEqual(before.words);
    expect(await at(show.root)).toEqual(before.show);

    // A node dropped inside the frame joins it: the next move of the frame carries it.
    const frameBox = (await frame.boundingBox())!;
    const strayHeader = stray.root.locator('.node-header .node-title');
    const strayBox = (await strayHeader.boundingBox())!;
    await drag(page, strayHeader, frameBox.x + frameBox.width / 2 - strayBox.x, frameBox.y + frameBox.height - 40 - strayBox.y);
    const strayIn = await at(stray.root);
    const frameAt = await at(frame);
    await drag(page, frame.locator('.frame-header'), -100, 80);
    await expect.poll(async () => (await at(frame)).x).not.toBe(frameAt.x);
    const shift = { x: (await at(frame)).x - frameAt.x, y: (await at(frame)).y - frameAt.y };
    expect(await at(stray.root)).toEqual({ x: strayIn.x + shift.x, y: strayIn.y + shift.y });

    // Saved in the file with its members.
    const saved = JSON.parse((await (await import('./pages/editor')).downloadBytes(await editor.save())).toString('utf8')) as {
      groups: { title: string; nodes: string[] }[];
    };
    expect(saved.groups).toEqual([expect.objectContaining({ title: 'Group', nodes: ['words', 'show', 'stray'] })]);
  });

  it('renames a node and a group in place: Enter or leaving the field keeps (one undo step), Escape cancels', async () => {
    const editor = await session.open();
    const { page } = editor;
    await openFile(editor, 'Renaming', [{ id: 'words', type: 'text', title: 'Words', position: { x: 0, y: 0 }, params: { text: 'a fox' } }]);
    const rename = async (button: string, field: string, text: string, key: 'Enter' | 'Escape' | 'leave') => {
      await page.getByRole('button', { name: button }).click();
      const input = page.getByRole('textbox', { name: field });
      await input.fill(text);
      if (key === 'leave') await editor.clickCanvas();
      else await input.press(key);
      await input.waitFor({ state: 'detached' });
    };

    await rename('Rename node Words', 'Node title', 'Caption', 'Escape');
    await editor.node('Words').root.waitFor();
    await rename('Rename node Words', 'Node title', 'Caption', 'Enter');
    await editor.node('Caption').root.waitFor();
    await editor.undo();
    await editor.node('Words').root.waitFor();
    await rename('Rename node Words', 'Node title', 'Left as is', 'leave');
    await editor.node('Left as is').root.waitFor();

    await editor.node('Left as is').select();
    await page.keyboard.press('Control+g');
    await page.getByRole('group', { name: 'Group: Group' }).waitFor();
    await rename('Rename group Group', 'Group title', 'Sky', 'Escape');
    await page.getByRole('group', { name: 'Group: Group' }).waitFor();
    await rename('Rename group Group', 'Group title', 'Sky', 'Enter');
    await page.getByRole('group', { name: 'Group: Sky' }).waitFor();
    await editor.undo();
    await page.getByRole('group', { name: 'Group: Group' }).waitFor();
  });

  it('auto-layout lays the graph out without overlaps, a note beside a node goes with it, and one undo restores every position', async () => {
    const editor = await session.open();
    // Everything but one node piled up at one spot, wired as a chain with a side branch; a note above the one apart.
    const pile = (id: string, type: string, title: string) => ({ id, type, title, position: { x: 10, y: 10 }, params: {} });
    await openFile(editor, 'Pile', [
      pile('c', 'chat-prompt-writer', 'Writer'),
      pile('t', 'text-to-image', 'Draw'),
      pile('i', 'image-to-image', 'Restyle'),
      pile('p', 'preview', 'Show'),
      { ...pile('q', 'preview', 'Show raw'), position: { x: 1200, y: 10 } },
    ], [
      { id: 'e1', source: { node: 'c', port: 'text' }, target: { node: 't', port: 'prompt' } },
      { id: 'e2', source: { node: 't', port: 'image' }, target: { node: 'i', port: 'image' } },
      { id: 'e3', source: { node: 'i', port: 'image' }, target: { node: 'p', port: 'value' } },
      { id: 'e4', source: { node: 't', port: 'image' }, target: { node: 'q', port: 'value' } },
    ], [{ id: 'about', position: { x: 1200, y: -150 }, size: { width: 200, height: 120 }, text: 'Above the raw preview' }]);
    // The file opens at a readable zoom, its start in view: show all of it to read every position.
    await editor.fitView();
    const note = editor.page.getByRole('group', { name: 'Note' });
    const noteBefore = await at(note);
    const titles = ['Writer', 'Draw', 'Restyle', 'Show', 'Show raw'];
    const before = await Promise.all(titles.map((t) => at(editor.node(t).root)));

    await tools(editor).getByRole('button', { name: 'Auto-layout' }).click();
    await expect.poll(() => at(editor.node('Show').root)).not.toEqual(before[3]);
    await editor.viewSettled();
    const boxes = await Promise.all(titles.map(async (t) => (await editor.node(t).root.boundingBox())!));
    for (let a = 0; a < boxes.length; a++) {
      for (let b = a + 1; b < boxes.length; b++) {
        const [p, q] = [boxes[a]!, boxes[b]!];
        const overlap = p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;
        expect(overlap, `${titles[a]} and ${titles[b]} overlap`).toBe(false);
      }
    }
    // Left to right along the wires.
    const x = async (t: string) => (await at(editor.node(t).root)).x;
    expect(await x('Writer')).toBeLessThan(await x('Draw'));
    expect(await x('Draw')).toBeLessThan(await x('Restyle'));
    expect(await x('Restyle')).toBeLessThan(await x('Show'));
    // The note moved with its node, keeping its place above it, and lies on no node.
    const raw = await at(editor.node('Show raw').root);
    expect(raw.x).toBeLessThan(1200);
    expect(await at(note)).toEqual({ x: raw.x, y: raw.y - 160 });
    const noteBox = (await note.boundingBox())!;
    for (const [i, q] of boxes.entries()) {
      const overlap = noteBox.x < q.x + q.width && q.x < noteBox.x + noteBox.width && noteBox.y < q.y + q.height && q.y < noteBox.y + noteBox.height;
      expect(overlap, `the note and ${titles[i]} overlap`).toBe(false);
    }

    await editor.undo();
    await expect.poll(() => Promise.all(titles.map((t) => at(editor.node(t).root)))).toEqual(before);
    expect(await at(note)).toEqual(noteBefore);
  });

  it('a new note takes every key typed right after N on a fresh page, and none as a shortcut', async () => {
    const editor = await session.open();
    const { page } = editor;
    await editor.clickCanvas();
    // Nodes out of view are not drawn: count them with the whole workflow in view.
    await editor.fitView();
    const before = await editor.nodes.count();

    await page.keyboard.press('n');
    // At a person's pace; each "n" would add another note, were it taken by the canvas.
    await page.keyboard.type('a note on gulls', { delay: 40 });
    const note = page.getByRole('textbox', { name: 'Note text (Markdown)' });
    await expect.poll(() => note.inputValue()).toBe('a note on gulls');
    await editor.viewSettled();
    await expect.poll(() => editor.nodes.count()).toBe(before + 1);
    await expect.poll(() => note.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type(', terns', { delay: 40 });
    expect(await note.inputValue()).toBe('a note on gulls, terns');
  });

  it('a note draws safe Markdown: emphasis, code and http links, and a javascript: link stays text', async () => {
    const editor = await session.open();
    const { page } = editor;
    await editor.newWorkflow();
    await tools(editor).getByRole('button', { name: 'Add note' }).click();
    const note = page.getByRole('group', { name: 'Note' });
    // A new note opens ready to write in.
    const input = note.getByRole('textbox', { name: 'Note text (Markdown)' });
    await input.fill('**Bold move** and `seed 7`\n\n- see [the docs](https://example.com/docs)\n- [click me](javascript:alert(document.cookie))\n\n<img src=x onerror=alert(1)>');
    await editor.pane.click({ position: { x: 30, y: 400 } });

    const body = note.getByLabel('Note text', { exact: true });
    await body.waitFor();
    // Double-click writes in it again; the text is kept as written.
    await body.dblclick();
    expect(await input.inputValue()).toContain('[click me](javascript:alert(document.cookie))');
    await input.press('Escape');
    await body.waitFor();
    expect(await body.locator('strong').textContent()).toBe('Bold move');
    expect(await body.locator('code').textContent()).toBe('seed 7');
    const links = body.locator('a');
    expect(await links.count()).toBe(1);
    expect(await links.first().getAttribute('href')).toBe('https://example.com/docs');
    expect(await links.first().getAttribute('rel')).toBe('noopener noreferrer');
    expect(await links.first().getAttribute('target')).toBe('_blank');
    await body.getByText('[click me](javascript:alert(document.cookie))').waitFor();
    expect(await body.locator('img').count()).toBe(0);
    await body.getByText('<img src=x onerror=alert(1)>').waitFor();
  });

  it('the minimap is toggled from the canvas tools, moves the view when clicked, and is remembered', async () => {
    const editor = await session.open();
    const { page } = editor;
    const minimap = page.getByRole('group', { name: 'Minimap' });
    const toggle = tools(editor).getByRole('button', { name: 'Minimap' });
    expect(await minimap.count()).toBe(0);
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    await toggle.click();
    await minimap.waitFor();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    // It draws every node of the starter workflow (counted with all of them in view).
    await editor.fitView();
    expect(await minimap.getAttribute('data-items')).toBe(String(await editor.nodes.count()));
    await editor.viewSettled();
    const view = () => page.locator('.react-flow__viewport').evaluate((el) => (el as HTMLElement).style.transform);
    const before = await view();
    const box = (await minimap.boundingBox())!;
    await page.mouse.click(box.x + 8, box.y + box.height - 8);
    await expect.poll(view).not.toBe(before);

    await page.reload();
    await editor.pane.waitFor();
    await minimap.waitFor();
    await tools(editor).getByRole('button', { name: 'Minimap' }).click();
    await minimap.waitFor({ state: 'detached' });
  });

  it('a bypassed node is drawn as such, passes its input on in a run, and Ctrl+B brings it back', async () => {
    const editor = await session.open();
    await editor.openExample('Restyle chain');
    const title = 'Restyle';
    const node = editor.node(title);
    const bypass = node.root.getByRole('button', { name: `Bypass ${title}` });
    await bypass.click();
    expect(await bypass.getAttribute('aria-pressed')).toBe('true');
    expect(await node.root.locator('.atelier-node').getAttribute('class')).toContain('bypassed');

    expect(await editor.runToEnd()).toMatch(/finished/i);
    expect(await node.phase()).toBe('bypassed');
    // What it fed still ran, on the image its input carried, and the preview got the result.
    expect(await editor.node('Repaint the sky').phase()).toBe('done');
    expect(await editor.node('Preview').phase()).toBe('done');

    await node.select();
    await editor.page.keyboard.press('ControlOrMeta+b');
    await expect.poll(() => bypass.getAttribute('aria-pressed')).toBe('false');
  });
});
