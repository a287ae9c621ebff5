/**
 * A ComfyUI workflow as a node, as a person makes one: ComfyUI chosen in Settings (the double,
 * allowing this page), a PNG ComfyUI saved dropped on the canvas, "Use its workflow as a node",
 * its prompt made a port in the inspector, the Chat prompt writer wired into it, run on ComfyUI
 * (pictures on the node), saved, opened again and run again from the cache; its seed made Random
 * is drawn before sending and carried by the picture.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { fixtureText } from '../backends/comfyui/pipeline/fixtures';
import { pngWith } from '../helpers/comfy-png';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { dropFile } from '../run/run-page';
import { editorSession } from './fixtures';
import { downloadBytes } from './pages/editor';
import { SettingsDialog } from './pages/settings';

const session = editorSession();
const dir = mkdtempSync(join(tmpdir(), 'atelier-e2e-comfy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const doubles: ComfyDouble[] = [];
afterEach(async () => {
  for (const d of doubles.splice(0)) await d.close();
});

describe('a ComfyUI workflow node in the editor', () => {
  it('comes from a dropped PNG, takes the chat prompt in a port, runs on ComfyUI, and runs again from the cache after save and open', async () => {
    const comfy = await startComfyDouble({
      corsOrigin: new URL(inject('e2eBaseUrl')).origin,
      unets: ['flux1-dev.safetensors'], textEncoders: ['clip_l.safetensors', 't5xxl_fp16.safetensors'], vaes: ['ae.safetensors'],
    });
    doubles.push(comfy);
    const editor = await session.open();
    const settings = await SettingsDialog.open(editor.page);
    await settings.chooseBackend('ComfyUI');
    await settings.enterBackendField('Base URL', comfy.url);
    await settings.enterBackendField('Checkpoint for SDXL v1.0', 'sd_xl_base_1.0.safetensors');
    await settings.close();
    await editor.newWorkflow();

    const png = await pngWith([['tEXt', 'prompt', fixtureText('flux-dev', 'api')], ['tEXt', 'workflow', fixtureText('flux-dev', 'ui')]]);
    await dropFile(editor.page, png, 'flux_dev_example.png', 'image/png');
    const choice = editor.page.getByRole('dialog', { name: 'This picture carries a ComfyUI workflow' });
    await choice.getByRole('button', { name: 'Use its workflow as a node' }).click();
    const flux = editor.node('ComfyUI workflow');
    await flux.root.waitFor();
    await editor.viewSettled();
    await expect.poll(() => flux.root.getByText('flux_dev_example.png · 14 ComfyUI nodes').count()).toBe(1);

    // Small pictures, so the double draws them quickly; the fields are on the node face.
    await flux.field('Width').fill('64');
    await flux.field('Height').fill('64');
    // The prompt becomes a port, in the inspector's list of the workflow's inputs.
    const promptAs = await editor.setting('ComfyUI workflow', 'CLIPTextEncode: text as');
    expect(await promptAs.inputValue()).toBe('field');
    await promptAs.selectOption({ label: 'Port' });
    await flux.input('Prompt').waitFor();
    expect(await flux.field('Prompt').count()).toBe(0);

    const writer = await editor.addNode('Chat prompt writer', 'right-edge');
    await editor.fitView();
    await editor.connect(writer, 'Text', flux, 'Prompt');
    await expect.poll(() => editor.wires.count()).toBe(1);

    expect(await editor.runToEnd(120_000)).toBe('Run finished');
    await editor.inspect(flux);
    await expect.poll(() => flux.images.count()).toBe(1);
    expect(comfy.received.prompts).toHaveLength(1);
    const sent = comfy.received.prompts[0]!.prompt as Record<string, { inputs: Record<string, unknown> }>;
    expect(typeof sent['6']?.inputs.text).toBe('string');
    expect(sent['6']?.inputs.text).not.toBe(JSON.parse(fixtureText('flux-dev', 'api'))['6'].inputs.text);
    expect([sent['27']?.inputs.width, sent['27']?.inputs.height]).toEqual([64, 64]);

    const saved = await downloadBytes(await editor.save());
    const text = saved.toString('utf8');
    expect(text).toContain('"type": "comfy-workflow"');
    expect(text).not.toContain(comfy.url);
    const path = join(dir, 'flux.json');
    writeFileSync(path, saved);
    await editor.newWorkflow();
    await editor.open(path);
    await editor.page.getByText(/^Opened “/).first().waitFor();
    await editor.fitView();
    expect(await editor.runToEnd(120_000)).toBe('Run finished');
    await expect.poll(() => editor.node('ComfyUI workflow').phase()).toBe('cached');
    expect(comfy.received.prompts).toHaveLength(1);

    // The seed has the image nodes' widget: left Random, a seed is drawn and sent (never empty),
    // and the picture carries it.
    const reopened = editor.node('ComfyUI workflow');
    expect(await reopened.root.getByRole('combobox', { name: 'Seed: after each run' }).inputValue()).toBe('fixed');
    await reopened.root.getByRole('checkbox', { name: 'Random' }).check();
    expect(await editor.runToEnd(120_000)).toBe('Run finished');
    expect(comfy.received.prompts).toHaveLength(2);
    const drawn = (comfy.received.prompts[1]!.prompt as Record<string, { inputs: Record<string, unknown> }>)['25']?.inputs.noise_seed;
    expect(typeof drawn).toBe('number');
    await expect.poll(() => reopened.images.first().getAttribute('aria-label')).toMatch(new RegExp(`, seed ${String(drawn)}$`));
  }, 240_000);
});
