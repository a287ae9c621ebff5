/**
 * Two ComfyUI servers as one backend, set up in Settings as a person with two GPUs does: the
 * base URL, then Add server with a label and a URL. The starter workflow's two image requests
 * are spread over both (the second goes to the server that has not been timed yet), and nothing
 * the run records names either server's address. Removing the second server leaves one.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { downloadFirstImage } from './backend-helpers';
import { editorSession } from './fixtures';
import { SettingsDialog } from './pages/settings';

const session = editorSession();
const doubles: ComfyDouble[] = [];
afterEach(async () => {
  for (const d of doubles.splice(0)) await d.close();
});

const pageOrigin = () => new URL(inject('e2eBaseUrl')).origin;

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
});
