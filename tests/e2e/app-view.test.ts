/**
 * App view in Chromium: an author marks an app on the starter (a prompt as an input, the preview
 * as an output), runs it from the form and downloads a picture; that picture, dropped back, opens
 * in App view; the chat-to-image example opens in App view; `?view=app` opens it from a link.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { extractWorkflow } from '../../workflow/embed';
import { dropFile } from '../run/run-page';
import { editorSession } from './fixtures';
import { AppViewPage } from './pages/app-view';
import { downloadBytes } from './pages/editor';
import { SettingsDialog } from './pages/settings';

const session = editorSession();

/** Drops a file on `target`, as a person dragging it from their files does. */
async function dropOn(target: Locator, bytes: Uint8Array, name: string, type: string): Promise<void> {
  const transfer = await target.page().evaluateHandle(({ b64, name, type }) => {
    const dt = new DataTransfer();
    dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type }));
    return dt;
  }, { b64: Buffer.from(bytes).toString('base64'), name, type });
  await target.dispatchEvent('dragover', { dataTransfer: transfer });
  await target.dispatchEvent('drop', { dataTransfer: transfer });
  await transfer.dispose();
}

describe('App view', () => {
  it('an author marks an app on the starter, runs it from the form and downloads a picture, which opens in App view again', async () => {
    const editor = await session.open();
    const app = new AppViewPage(editor.page);

    // Mark: the chat's user message as an input, the preview as the output.
    await editor.setting('Chat prompt writer', 'User message');
    const mark = editor.inspector.getByRole('button', { name: 'Add User message to app' });
    await mark.click();
    await expect.poll(() => mark.getAttribute('aria-pressed')).toBe('true');
    await editor.fitView();
    await editor.node('Preview / save').select();
    await editor.inspector.getByRole('button', { name: 'Add to app as output' }).click();
    const panel = editor.page.getByRole('region', { name: 'App', exact: true });
    const label = panel.getByRole('textbox', { name: 'Label of Chat prompt writer › User message' });
    await label.fill('What should it show?');
    await label.press('Enter');
    await panel.getByRole('textbox', { name: 'Label of What should it show?' }).waitFor();
    // Each mark is one undo step.
    expect(await editor.page.getByRole('button', { name: 'Undo label app input' }).count()).toBe(1);

    await editor.viewButton('App view').click();
    await app.root.waitFor();
    expect(new URL(editor.page.url()).searchParams.get('view')).toBe('app');
    const prompt = app.field('What should it show?');
    expect(await prompt.inputValue()).toBe('A lighthouse on a cliff at dusk, waves below, seen from the sea.');
    await prompt.fill('A red fox in deep snow, morning light.');
    await app.estimate.getByText(/API call/).first().waitFor();

    // What was typed survives a trip to the graph and back: it is the node's own field.
    await editor.viewButton('Graph').click();
    await editor.pane.waitFor();
    expect(new URL(editor.page.url()).searchParams.get('view')).toBeNull();
    expect(await editor.node('Chat prompt writer').field('User message').inputValue()).toBe('A red fox in deep snow, morning light.');
    await editor.viewButton('App view').click();
    expect(await app.field('What should it show?').inputValue()).toBe('A red fox in deep snow, morning light.');

    await app.runButton.click();
    const output = app.output('Preview / save');
    const download = output.getByRole('button', { name: 'Download image 1 of Preview / save' });
    await download.waitFor({ timeout: 60_000 });
    await output.getByText(/^Done in/).waitFor();
    const saved = editor.page.waitForEvent('download');
    await download.click();
    const file = await saved;
    const bytes = await downloadBytes(file);
    const embedded = JSON.parse(extractWorkflow(bytes)!.workflow!) as { app?: unknown; nodes: { id: string; params: Record<string, unknown> }[] };
    expect(embedded.app).toEqual({
      inputs: [{ name: 'user', node: 'prompt-writer', param: 'user', label: 'What should it show?' }],
      outputs: [{ node: 'preview' }],
    });
    expect(embedded.nodes.find((n) => n.id === 'prompt-writer')?.params.user).toBe('A red fox in deep snow, morning light.');

    // A new workflow has no app: the graph. The picture dropped on it opens its workflow in App view.
    await editor.newWorkflow();
    expect(new URL(editor.page.url()).searchParams.get('view')).toBeNull();
    await dropFile(editor.page, bytes, file.suggestedFilename(), 'image/jpeg');
    await app.root.waitFor();
    expect(new URL(editor.page.url()).searchParams.get('view')).toBe('app');
    expect(await app.field('What should it show?').inputValue()).toBe('A red fox in deep snow, morning light.');
  });

  it('the chat-to-image example opens in App view, and ?view=app opens App view from a link', async () => {
    const editor = await session.open();
    const app = new AppViewPage(editor.page);
    await editor.openExample('Chat to image', { view: 'app' });
    expect(new URL(editor.page.url()).searchParams.get('view')).toBe('app');
    await app.root.getByRole('heading', { name: 'Chat to image', level: 1 }).waitFor();
    expect(await app.field('What should the picture show?').inputValue()).toBe('a lighthouse on a rocky cliff at dusk');
    expect(await app.field('Seed (same seed, same picture)').inputValue()).toBe('1234');
    await app.output('Pictures').getByText('Run to see Pictures here.').waitFor();

    // A picture without a workflow dropped on the form is not lost, nor does the page leave: it says where it can go.
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3366aa' } }).png().toBuffer();
    await dropOn(app.root, png, 'plain.png', 'image/png');
    await editor.page.getByText("'plain.png' carries no Atelier workflow: drop it on an image input of the form", { exact: false }).waitFor();
    await app.root.waitFor();

    // The link opens App view again after a reload, on the autosaved workflow.
    await editor.goto('?view=app');
    expect(await app.field('What should the picture show?').inputValue()).toBe('a lighthouse on a rocky cliff at dusk');
    await app.editGraph.click();
    await editor.node('Draw it (SDXL)').root.waitFor();
    expect(new URL(editor.page.url()).searchParams.get('view')).toBeNull();
  });

  it('in App view, Ctrl+Z / Ctrl+Shift+Z undo and redo form edits (a focused text field keeps its own undo), Ctrl+S saves, Ctrl+O opens, Ctrl+Enter runs', async () => {
    const editor = await session.open();
    const app = new AppViewPage(editor.page);
    await editor.openExample('Chat to image', { view: 'app' });
    const heading = app.root.getByRole('heading', { name: 'Chat to image', level: 1 });
    const seed = app.field('Seed (same seed, same picture)');
    const subject = app.field('What should the picture show?');

    // Ctrl+Z undoes a form edit made without typing (the browser has no undo of its own for it),
    // Ctrl+Y and Ctrl+Shift+Z redo it.
    await app.form.getByRole('checkbox', { name: 'Random' }).check();
    await expect.poll(() => seed.inputValue()).toBe('random each run');
    await editor.page.keyboard.press('ControlOrMeta+z');
    await expect.poll(() => seed.inputValue()).toBe('1234');
    await editor.page.keyboard.press('ControlOrMeta+y');
    await expect.poll(() => seed.inputValue()).toBe('random each run');
    await editor.page.keyboard.press('ControlOrMeta+z');
    await expect.poll(() => seed.inputValue()).toBe('1234');
    await editor.page.keyboard.press('ControlOrMeta+Shift+z');
    await expect.poll(() => seed.inputValue()).toBe('random each run');

    // In a text field Ctrl+Z is the field's own: the document's last step stays done.
    await subject.click();
    await editor.page.keyboard.press('ControlOrMeta+z');
    await editor.quiet();
    expect(await seed.inputValue()).toBe('random each run');
    expect(await subject.inputValue()).toBe('a lighthouse on a rocky cliff at dusk');
    await heading.click();

    // Ctrl+S downloads the workflow as it is now; Ctrl+O asks for a file.
    const saved = editor.page.waitForEvent('download');
    await editor.page.keyboard.press('ControlOrMeta+s');
    const file = JSON.parse((await downloadBytes(await saved)).toString('utf8')) as { nodes: { id: string; params: Record<string, unknown> }[]; app: { inputs: { name: string; node: string }[] } };
    const seedNode = file.app.inputs.find((i) => i.name === 'seed')?.node;
    expect(file.nodes.find((n) => n.id === seedNode)?.params.seed).toBeNull();
    const chooser = editor.page.waitForEvent('filechooser');
    await editor.page.keyboard.press('ControlOrMeta+o');
    await chooser;
    await app.root.waitFor();

    // Ctrl+Enter runs, from the form too.
    await subject.click();
    await editor.page.keyboard.press('ControlOrMeta+Enter');
    await app.output('Pictures').getByRole('button', { name: /^Download image 1 of/ }).waitFor({ timeout: 60_000 });
  });

  it('the author drags an app input to another place in the side panel: one undo step, and the form follows', async () => {
    const editor = await session.open();
    const app = new AppViewPage(editor.page);
    await editor.openExample('Chat to image', { view: 'graph' });
    const list = editor.page.getByRole('region', { name: 'App', exact: true }).getByRole('list', { name: 'App inputs' });
    const labels = () => list.getByRole('textbox').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
    expect(await labels()).toEqual(['What should the picture show?', 'Seed (same seed, same picture)']);

    // The seed's grip, dragged above the first row's middle and let go there.
    const grip = list.getByTitle('Drag Seed (same seed, same picture) to reorder');
    await grip.hover();
    const first = (await list.getByRole('listitem').first().boundingBox())!;
    await editor.page.mouse.down();
    await editor.page.mouse.move(first.x + 10, first.y + first.height / 2 - 4, { steps: 6 });
    await expect.poll(() => list.getByRole('listitem').first().getAttribute('class')).toContain('drop-before');
    await editor.page.mouse.move(first.x + 10, first.y + 2, { steps: 2 });
    await editor.page.mouse.up();
    await expect.poll(labels).toEqual(['Seed (same seed, same picture)', 'What should the picture show?']);
    expect(await editor.page.getByRole('button', { name: 'Undo reorder app inputs' }).count()).toBe(1);

    await editor.viewButton('App view').click();
    const order = await app.form.locator('#app-f-draw-seed-input, #app-f-subject-text-input').evaluateAll((controls) => controls.map((c) => c.id));
    expect(order).toEqual(['app-f-draw-seed-input', 'app-f-subject-text-input']);
    await editor.viewButton('Graph').click();

    // One undo puts it back.
    await editor.undo();
    await expect.poll(labels).toEqual(['What should the picture show?', 'Seed (same seed, same picture)']);
  });

  it('an app entry that points at nothing shows as missing, never breaks the form, and a deleted node takes its entries with a toast', async () => {
    const editor = await session.open();
    const app = new AppViewPage(editor.page);
    // A file from a build that kept an input on a field the component's face no longer shows.
    const workflow = JSON.parse(readFileSync(join(process.cwd(), 'public', 'examples', 'restyle-component.json'), 'utf8')) as Record<string, unknown>;
    workflow.app = {
      inputs: [{ name: 'strength', node: 'watercolour-restyle-1', param: 'strength', label: 'How far' }, { name: 'gone', node: 'restyle-heavy', param: 'steps' }],
      outputs: [{ node: 'preview-light' }],
    };
    const path = join(mkdtempSync(join(tmpdir(), 'atelier-e2e-app-')), 'stale.json');
    await editor.openWorkflow(workflow as { metadata: { title: string } }, path);
    await editor.viewButton('App view').click();
    expect(await app.field('How far').inputValue()).toBe('0.3');
    await app.form.getByText("input 'gone': node 'restyle-heavy' (Watercolour restyle) has no parameter 'steps'").waitFor();
    await app.output('Light touch').waitFor();

    // In the graph's App panel it is marked missing, and × takes it out.
    await editor.viewButton('Graph').click();
    await editor.pane.waitFor();
    await editor.fitView();
    const panel = editor.page.getByRole('region', { name: 'App', exact: true });
    await panel.getByText(/^Missing: input 'gone'/).waitFor();
    await panel.getByRole('button', { name: /^Remove .*steps from the app$/ }).click();
    await expect.poll(() => panel.getByText(/^Missing:/).count()).toBe(0);

    // Deleting the node an input is on takes the input with it, says so, and Undo brings both back.
    await editor.node('Light restyle').select();
    await editor.page.keyboard.press('Delete');
    await editor.page.getByText("1 app entry pointed at what is gone and was removed from the app (input 'strength': no node 'watercolour-restyle-1'). Undo brings it back.").waitFor();
    await expect.poll(() => panel.getByRole('list', { name: 'App inputs' }).count()).toBe(0);
    await editor.undo();
    await panel.getByRole('textbox', { name: 'Label of How far' }).waitFor();
  });

  it('a run that cannot start shows its problem on the form field concerned, naming the node', async () => {
    const editor = await session.open();
    const app = new AppViewPage(editor.page);
    await editor.openExample('Chat to image', { view: 'app' });
    const seed = app.field('Seed (same seed, same picture)');
    await seed.fill('-5');
    await seed.blur();
    await app.runButton.click();
    await app.form.getByText(/^Draw it \(SDXL\): .*/).first().waitFor();
    expect(await seed.getAttribute('aria-invalid')).toBe('true');
  });

  it('a failed run says so on the output, naming the node at fault, and lists a failure the form does not show', async () => {
    // A server that requires a token, given the wrong one: every request answers 401.
    const server = await session.server({ ATELIER_LOCAL_TOKEN: 'local-secret-4d9f2c' });
    const editor = await session.open({ baseUrl: server.url });
    const app = new AppViewPage(editor.page);
    const settings = await SettingsDialog.open(editor.page);
    await settings.field('Local server token').fill('not-the-token');
    await editor.page.keyboard.press('Escape');
    await settings.dialog.waitFor({ state: 'detached' });

    await editor.openExample('Chat to image', { view: 'app' });
    await app.runButton.click();
    await app.output('Pictures').getByText("Skipped: 'Prompt writer' failed").waitFor({ timeout: 60_000 });
    const problems = app.root.getByRole('list', { name: 'Problems in the graph' });
    expect(await problems.getByRole('button').first().textContent()).toMatch(/^Prompt writer failed: .*401/);
    // Its link shows the node in the graph.
    await problems.getByRole('button').first().click();
    await editor.node('Prompt writer').root.waitFor();
    // Selected there, its settings in the inspector.
    await editor.inspector.getByRole('heading', { name: 'Prompt writer', exact: true }).waitFor();
  });
});
