/**
 * Two ComfyUI servers as one backend, set up in Settings as a person with two GPUs does: the
 * base URL, then Add server with a label and a URL. The starter workflow's two image requests
 * are spread over both (the second goes to the server that has not been timed yet), and nothing
 * the run records names either server's address. Removing the second server leaves one.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { figureText, settledEstimate } from '../run/run-page';
import { downloadFirstImage } from './backend-helpers';
import { editorSession } from './fixtures';
import type { EditorPage } from './pages/editor';
import { SettingsDialog } from './pages/settings';

const session = editorSession();
const doubles: ComfyDouble[] = [];
afterEach(async () => {
  for (const d of doubles.splice(0)) await d.close();
});

const pageOrigin = () => new URL(inject('e2eBaseUrl')).origin;
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-pool-'));

/** Settings → Image backend: ComfyUI on `first`, then Add server for `second`, each labelled. */
async function twoServers(editor: EditorPage, first: { label: string; url: string }, second: { label: string; url: string }): Promise<void> {
  const settings = await SettingsDialog.open(editor.page);
  await settings.chooseBackend('ComfyUI');
  await settings.enterBackendField('Base URL', first.url);
  await settings.enterBackendField('Checkpoint for SDXL v1.0', 'sd_xl_base_1.0.safetensors');
  await settings.backendSlot().getByRole('button', { name: 'Add server' }).click();
  await settings.enterBackendField('Label of server 1', first.label);
  await settings.enterBackendField('Label of server 2', second.label);
  await settings.enterBackendField('URL of server 2', second.url);
  await expect.poll(() => settings.backendSlot().getByText('Server 2 needs a URL').count()).toBe(0);
  await settings.close();
}

/** The state cell of a server's row in the run panel's table of servers. */
function serverState(editor: EditorPage, label: string) {
  const row = editor.runPanel.getByRole('region', { name: 'Servers' }).getByRole('row').filter({ has: editor.page.getByRole('rowheader', { name: label, exact: true }) });
  return row.locator('td').last();
}

describe('a pool of two ComfyUI servers, from Settings', () => {
  it('lists both servers with labels and spreads the run over them', async () => {
    for (let i = 0; i < 2; i++) doubles.push(await startComfyDouble({ corsOrigin: pageOrigin() }));
    const [desk, box] = doubles as [ComfyDouble, ComfyDouble];
    const editor = await session.open();
    const settings = await SettingsDialog.open(editor.page);
    await settings.chooseBackend('ComfyUI');
    await settings.enterBackendField('Base URL', desk.url);
    await settings.enterBackendField('Checkpoint for SDXL v1.0', 'sd_xl_base_1.0.safetensors');
    await settings.backendSlot().getByRole('button', { name: 'Add server' }).click();
    await settings.enterBackendField('Label of server 1', 'desk');
    await settings.enterBackendField('Label of server 2', 'box');
    // A server without a URL is flagged on its row until one is entered.
    await settings.backendSlot().getByText('Server 2 needs a URL').waitFor();
    await settings.enterBackendField('URL of server 2', box.url);
    await expect.poll(() => settings.backendSlot().getByText('Server 2 needs a URL').count()).toBe(0);
    await settings.close();

    expect(await editor.runToEnd()).toBe('Run finished');
    expect(desk.received.prompts).toHaveLength(1);
    expect(box.received.prompts).toHaveLength(1);
    // Both servers were asked what they have and how busy they are before placing.
    for (const d of doubles) expect(d.received.requests.some((r) => r.method === 'GET' && r.path === '/queue')).toBe(true);

    const { bytes, manifest } = await downloadFirstImage(editor, 'Text to image');
    expect(manifest?.requests[0]?.backend).toMatchObject({ kind: 'comfyui', label: 'ComfyUI' });
    // The image says which server made it, by label.
    expect(['desk', 'box']).toContain(manifest?.madeOn);
    for (const d of doubles) expect(bytes.toString('latin1')).not.toContain(new URL(d.url).host);
  });

  it('removes a server, and with one left the backend is plain ComfyUI again', async () => {
    doubles.push(await startComfyDouble({ corsOrigin: pageOrigin() }));
    const [only] = doubles as [ComfyDouble];
    const editor = await session.open();
    const settings = await SettingsDialog.open(editor.page);
    await settings.chooseBackend('ComfyUI');
    await settings.enterBackendField('Base URL', only.url);
    await settings.enterBackendField('Checkpoint for SDXL v1.0', 'sd_xl_base_1.0.safetensors');
    await settings.backendSlot().getByRole('button', { name: 'Add server' }).click();
    await settings.enterBackendField('URL of server 2', 'http://127.0.0.1:9');
    await settings.backendSlot().getByRole('button', { name: 'Remove server 2' }).click();
    expect(await settings.backendField('URL of server 2').count()).toBe(0);
    await settings.close();
    expect(await editor.runToEnd()).toBe('Run finished');
    expect(only.received.prompts).toHaveLength(2);
  });

  it('shows both servers busy in the run panel, one stopped mid-run as down, and the rest of an eight-item fan-out finishes on the other', async () => {
    for (let i = 0; i < 2; i++) doubles.push(await startComfyDouble({ corsOrigin: pageOrigin() }));
    const [desk, box] = doubles as [ComfyDouble, ComfyDouble];
    // Each holds the prompt it runs at its first step: the requests stay in flight until released.
    desk.hold();
    box.hold();
    const file = join(dir, 'eight.json');
    writeFileSync(file, JSON.stringify({
      format: 'atelier.workflow', version: 1,
      metadata: { title: 'Eight', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
      nodes: [
        { id: 'lines', type: 'text', title: 'Lines', position: { x: 0, y: 0 }, params: { text: ['a fox', 'a heron', 'an owl', 'a hare', 'a wren', 'a stag', 'a newt', 'a mole'].join('\n') } },
        { id: 'split', type: 'split-text', title: 'Split', position: { x: 380, y: 0 }, params: {} },
        { id: 'draw', type: 'text-to-image', title: 'Draw', position: { x: 760, y: 0 }, params: { engine: 'sdxl', seed: 7, steps: 10 } },
      ],
      edges: [
        { id: 'a', source: { node: 'lines', port: 'text' }, target: { node: 'split', port: 'text' } },
        { id: 'b', source: { node: 'split', port: 'items' }, target: { node: 'draw', port: 'prompt' } },
      ],
    }));
    const editor = await session.open();
    await editor.open(file);
    await editor.node('Draw').root.waitFor();
    await twoServers(editor, { label: 'desk', url: desk.url }, { label: 'box', url: box.url });
    // The cost view says the run is shared.
    await expect.poll(async () => figureText(await settledEstimate(editor), 'Images')).toBe('8 (shared by 2 servers)');

    await editor.run();
    // Four at once (the default), spread over both: each holds a request and queues another.
    await desk.until(() => desk.received.prompts.length + box.received.prompts.length === 4);
    await expect.poll(() => serverState(editor, 'desk').textContent(), { timeout: 30_000 }).toBe('busy');
    await expect.poll(() => serverState(editor, 'box').textContent(), { timeout: 30_000 }).toBe('busy');
    const onBox = box.received.prompts.length;
    expect(onBox).toBeGreaterThan(0);

    // The box goes away mid-run: what it had taken fails there, never sent again; it is shown down.
    await box.close();
    doubles.splice(doubles.indexOf(box), 1);
    await expect.poll(() => serverState(editor, 'box').textContent(), { timeout: 30_000 }).toMatch(/^down since .+, retrying at /);
    desk.release();
    await editor.lastRun.waitFor({ timeout: 120_000 });

    // Every item the box had not taken ran on the desk, and nothing twice.
    expect(desk.received.prompts).toHaveLength(8 - onBox);
    // The desk's row counts the images it made this session.
    const images = editor.runPanel.getByRole('table', { name: /^Servers of ComfyUI/ }).getByRole('row').filter({ has: editor.page.getByRole('rowheader', { name: 'desk', exact: true }) }).locator('td').nth(2);
    await expect.poll(() => images.textContent()).toBe(String(8 - onBox));
    // No address anywhere in the panel.
    for (const url of [desk.url, box.url]) expect(await editor.runPanel.textContent()).not.toContain(new URL(url).host);
  });
});

