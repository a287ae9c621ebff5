/**
 * The starter workflow on AUTOMATIC1111 through the local server: the server is started with
 * ATELIER_IMAGE_BACKEND=a1111 and ATELIER_BACKEND_URL (its chat upstream another local server's
 * engines); the person picks "through this server", sees there where the server sends each
 * engine and how to change it, and the cost panel says what AUTOMATIC1111 will change before
 * the run. The browser never learns the backend's address.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startA1111Double, type A1111Double } from '../helpers/doubles/a1111';
import { backendNotes, downloadFirstImage, storedByPage } from './backend-helpers';
import { editorSession } from './fixtures';
import { SettingsDialog } from './pages/settings';

const session = editorSession();
const doubles: A1111Double[] = [];
afterEach(async () => {
  for (const d of doubles.splice(0)) await d.close();
});

describe('AUTOMATIC1111, through this server', () => {
  it('shows where the server sends each engine, says what it changes, and runs the starter workflow to images', async () => {
    const a1111 = await startA1111Double();
    doubles.push(a1111);
    const chat = await session.server({});
    const server = await session.server({ ATELIER_IMAGE_BACKEND: 'a1111', ATELIER_BACKEND_URL: a1111.url, ATELIER_TEXT_BASE_URL: `${chat.url}/local/text` });
    const editor = await session.open({ baseUrl: server.url });

    const settings = await SettingsDialog.open(editor.page);
    await settings.route('Real endpoints, through this server');
    const shown = settings.imageBackend;
    await shown.getByText('through this server, the server decides', { exact: false }).waitFor();
    expect((await shown.getByRole('listitem').allTextContents()).map((t) => t.trim())).toEqual([
      'SDXL v1.0: AUTOMATIC1111 / Forge', 'SD v1.5: AUTOMATIC1111 / Forge', 'ControlNet on SDXL: AUTOMATIC1111 / Forge',
    ]);
    expect(await shown.textContent()).toContain('ATELIER_IMAGE_BACKEND (comfyui, a1111, openai, fal, replicate or google), ATELIER_BACKEND_URL and ATELIER_BACKEND_TOKEN');
    // Nothing here can be changed from the browser.
    expect(await shown.getByRole('combobox').count()).toBe(0);
    await settings.close();

    const notes = await backendNotes(editor);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^Text to image on AUTOMATIC1111 \/ Forge: .*Checkpoint: uses whatever checkpoint AUTOMATIC1111 has loaded/);
    expect(await editor.runToEnd()).toBe('Run finished');
    expect(await editor.node('Text to image').images.count()).toBe(1);
    expect(await editor.node('Image to image').images.count()).toBe(1);
    expect(a1111.generations.map((g) => g.route)).toEqual(['txt2img', 'img2img']);

    const { manifest } = await downloadFirstImage(editor, 'Image to image');
    expect(manifest?.requests[0]?.backend).toMatchObject({ kind: 'a1111', label: 'AUTOMATIC1111 / Forge' });
    const stored = await storedByPage(editor.page);
    expect(JSON.stringify(stored)).not.toContain(new URL(a1111.url).host);
  });
});
