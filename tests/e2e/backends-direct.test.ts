/**
 * The starter workflow on a backend called straight from the browser, set up in Settings as a
 * person does: ComfyUI (started with --enable-cors-header for this page) and OpenAI Images (a
 * compatible server allowing this page, with an API key). The chat node stays on the local
 * engines. Before the run the cost panel says what each backend changes; the run shows the
 * backend's steps and its images; Cancel reaches ComfyUI; a name ComfyUI lacks fails the node
 * that used it, in words; the credential stays in its settings key only.
 */
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { startOpenAIImagesDouble, type OpenAIImagesDouble } from '../helpers/doubles/openai-images';
import { backendNotes, downloadFirstImage, storedByPage } from './backend-helpers';
import { editorSession } from './fixtures';
import { downloadBytes, type EditorPage } from './pages/editor';
import { SettingsDialog } from './pages/settings';

const session = editorSession();
const doubles: (ComfyDouble | OpenAIImagesDouble)[] = [];
afterEach(async () => {
  for (const d of doubles.splice(0)) await d.close();
});

/** The origin the editor is served from: what the backends must allow. */
const pageOrigin = () => new URL(inject('e2eBaseUrl')).origin;

async function comfyUi(): Promise<ComfyDouble> {
  const comfy = await startComfyDouble({ corsOrigin: pageOrigin() });
  doubles.push(comfy);
  return comfy;
}

/** Settings → Image backend → ComfyUI at the double, with `checkpoint` for SDXL. */
async function useComfy(editor: EditorPage, comfy: ComfyDouble, checkpoint: string): Promise<void> {
  const settings = await SettingsDialog.open(editor.page);
  await settings.chooseBackend('ComfyUI');
  await settings.enterBackendField('Base URL', comfy.url);
  await settings.backendField('Checkpoint for SDXL v1.0').focus();
  // The checkpoint field asks ComfyUI what it has, for its suggestions.
  await settings.backendSlot().getByText(/^ComfyUI lists 3 checkpoints, 2 ControlNets, 1 LoRA, /).waitFor();
  await settings.enterBackendField('Checkpoint for SDXL v1.0', checkpoint);
  await settings.close();
}

describe('ComfyUI, directly from the browser', () => {
  it('says what it approximates, runs the starter workflow to images, and records itself in the image', async () => {
    const comfy = await comfyUi();
    const editor = await session.open();
    await useComfy(editor, comfy, 'sd_xl_base_1.0.safetensors');

    expect(await backendNotes(editor)).toEqual([
      'Text to image on ComfyUI: Style preset: ComfyUI has no style presets: \'cinematic\' becomes words around the prompt ("cinematic film still of {prompt}, shallow depth of field, dramatic lighting, film grain, moody") and in the negative prompt',
      'Image to image on ComfyUI: Style preset: ComfyUI has no style presets: \'Stained Glass\' becomes words around the prompt ("stained glass window of {prompt}, coloured glass pieces, lead lines, backlit, vibrant") and in the negative prompt',
    ]);
    expect(await editor.runToEnd()).toBe('Run finished');
    expect(await editor.node('Text to image').images.count()).toBe(1);
    expect(await editor.node('Image to image').images.count()).toBe(1);
    expect(comfy.received.prompts).toHaveLength(2);
    expect(comfy.received.uploads).toHaveLength(1);

    const { bytes, manifest } = await downloadFirstImage(editor, 'Text to image');
    expect(manifest?.requests[0]?.backend).toMatchObject({ kind: 'comfyui', label: 'ComfyUI', notes: [{ field: 'style_preset', treatment: 'approximated' }] });
    expect(JSON.stringify(manifest?.requests[0]?.backend?.translated)).toContain('"ckpt_name":"sd_xl_base_1.0.safetensors"');
    expect(bytes.toString('latin1')).not.toContain(new URL(comfy.url).host);
  });

  it('shows ComfyUI’s steps on the node, and Cancel interrupts the prompt in ComfyUI', async () => {
    const comfy = await comfyUi();
    const editor = await session.open();
    await useComfy(editor, comfy, 'sd_xl_base_1.0.safetensors');
    comfy.hold(3);
    await editor.run();
    await comfy.until(() => comfy.waiting() !== undefined);
    const draw = editor.node('Text to image');
    await draw.runStatus.getByText(/^step 2 of \d+$/).waitFor();

    // Read before Cancel: once ComfyUI is interrupted, the prompt leaves its queue.
    const promptId = comfy.waiting()?.promptId;
    expect(promptId).toBeDefined();
    await editor.cancelButton.click();
    await comfy.until(() => comfy.received.interrupts.length > 0);
    expect(comfy.received.interrupts).toEqual([promptId]);
    await editor.lastRun.waitFor();
    expect(await editor.lastRun.getByRole('heading').textContent()).toBe('Run cancelled');
    expect(await draw.phase()).toBe('cancelled');
  });

  it('fails the node whose checkpoint ComfyUI does not have, saying what it has', async () => {
    const comfy = await comfyUi();
    const editor = await session.open();
    await useComfy(editor, comfy, 'sd_xl_base_1.0.ckpt');

    expect(await editor.runToEnd()).toBe('Run finished with failures');
    const draw = editor.node('Text to image');
    expect(await draw.phase()).toBe('failed');
    expect(await draw.error.textContent()).toContain("ComfyUI has no checkpoint 'sd_xl_base_1.0.ckpt' (the checkpoint set for sdxl in the backend's settings); "
      + "did you mean 'sd_xl_base_1.0.safetensors'? it has: sd_xl_base_1.0.safetensors, sd_xl_refiner_1.0.safetensors, v1-5-pruned-emaonly.safetensors");
    expect(await editor.node('Image to image').phase()).toBe('skipped');
  });
});

describe('a ComfyUI that does not allow this page (started without --enable-cors-header)', () => {
  it('fails the node saying CORS first, with the flag for this page\'s origin, not "is it running?"', async () => {
    // Its origin check answers 403 to this page (another port is another origin), and no CORS header.
    const comfy = await startComfyDouble();
    doubles.push(comfy);
    const editor = await session.open();
    const settings = await SettingsDialog.open(editor.page);
    await settings.chooseBackend('ComfyUI');
    await settings.enterBackendField('Base URL', comfy.url);
    await settings.enterBackendField('Checkpoint for SDXL v1.0', 'sd_xl_base_1.0.safetensors');
    await settings.close();

    expect(await editor.runToEnd()).toBe('Run finished with failures');
    const draw = editor.node('Text to image');
    expect(await draw.phase()).toBe('failed');
    const message = (await draw.error.textContent()) ?? '';
    const cors = `ComfyUI at ${comfy.url} is running but does not allow requests from this page (CORS): start it with \`--enable-cors-header ${pageOrigin()}\``;
    // After the request's own `METHOD URL:` prefix, the explanation opens with CORS.
    expect(message.replace(/^(?:GET|POST) \S+: /, '').slice(0, cors.length)).toBe(cors);
    expect(message).not.toMatch(/is it running|main\.py|Failed to fetch/);
    expect(comfy.received.prompts).toEqual([]);
  });
});

describe('what a backend cannot take stops the run before anything is sent', () => {
  it('lists it as a problem of the node’s field, which the problem leads to', async () => {
    const comfy = await comfyUi();
    const editor = await session.open();
    const settings = await SettingsDialog.open(editor.page);
    await settings.chooseBackend('ComfyUI');
    await settings.enterBackendField('Base URL', comfy.url);
    await settings.close();

    await editor.run();
    const problems = editor.runProblems;
    await problems.waitFor();
    const items = (await problems.getByRole('button').allTextContents()).map((t) => t.trim());
    const missing = "Checkpoint: ComfyUI cannot take this request: needs a checkpoint file: the node names none, and none is set for the sdxl engine in the backend's settings (Settings → Image backend in the editor, --checkpoint sdxl=FILE in the CLI)";
    expect(items).toEqual([`Text to image: ${missing}`, `Image to image: ${missing}`]);
    expect(comfy.received.requests).toEqual([]);
    const draw = editor.node('Text to image');
    await editor.clickCanvas();
    await problems.getByRole('button', { name: /^Text to image: Checkpoint/ }).click();
    await expect.poll(() => draw.field('Checkpoint').evaluate((el) => el === document.activeElement)).toBe(true);
  });
});

describe('OpenAI Images, directly from the browser', () => {
  it('runs on the key entered for it, after a reload too, says what it leaves out, and keeps the key in its settings key only', async () => {
    const openai = await startOpenAIImagesDouble({ corsAllowOrigins: [pageOrigin()] });
    doubles.push(openai);
    const editor = await session.open();
    const settings = await SettingsDialog.open(editor.page);
    await settings.chooseBackend('OpenAI Images');
    await settings.enterBackendField('Base URL', openai.url);
    await settings.enterBackendField('API key', openai.apiKey);
    await settings.backendField('Model').focus();
    await settings.backendSlot().getByText(/^OpenAI Images lists \d+ models/).waitFor();
    await settings.enterBackendField('Model', 'gpt-image-1');
    await settings.close();
    // Kept for the session: after a reload the settings are read back before anything runs.
    await editor.page.reload();
    await editor.pane.waitFor();

    const notes = await backendNotes(editor);
    expect(notes[0]).toMatch(/^Text to image on OpenAI Images: Seed, Sampler, Steps and .+ are not sent; Style preset: 'cinematic' is added to the prompt/);
    expect(notes[1]).toMatch(/^Image to image on OpenAI Images: Seed, Sampler, Steps, .+ and Strength are not sent; Style preset: 'Stained Glass' is added to the prompt as “stained glass style”: OpenAI Images has no style presets; Image: is sent for gpt-image-1 to edit as a whole/);
    expect(await editor.runToEnd()).toBe('Run finished');
    expect(await editor.node('Image to image').images.count()).toBe(1);
    expect(openai.received.map((r) => `${r.method} ${r.path} ${r.authorization ?? ''}`)).toEqual([
      `GET /v1/models Bearer ${openai.apiKey}`,
      `POST /v1/images/generations Bearer ${openai.apiKey}`,
      `POST /v1/images/edits Bearer ${openai.apiKey}`,
    ]);

    const stored = await storedByPage(editor.page);
    expect(stored.session['atelier.backend-credentials.v1']).toBe(JSON.stringify({ 'all:openai': openai.apiKey }));
    const elsewhere = { ...stored.local, ...stored.session, 'atelier.backend-credentials.v1': '' };
    expect(JSON.stringify(elsewhere)).not.toContain(openai.apiKey);
    expect(stored.indexedDb).not.toContain(openai.apiKey);
    expect(stored.indexedDb).not.toContain(openai.url);

    const saved = (await downloadBytes(await editor.save())).toString('utf8');
    expect(saved).not.toContain(openai.apiKey);
    expect(saved).not.toContain(new URL(openai.url).host);
    expect(saved).not.toMatch(/openai|comfyui|backend/i);
  });
});
