/**
 * A pipeline's input image on its way to ComfyUI: one picture feeding two LoadImage inputs is
 * decoded once and uploaded once, as its own bytes, and both inputs name the uploaded file.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createComfyBackend } from '../../../../api/backends/comfyui/index';
import { imageCodec } from '../../../../api/backends/comfyui/images';
import { importPipeline } from '../../../../api/backends/comfyui/pipeline/import';
import { fromStored } from '../../../../api/backends/comfyui/pipeline/model';
import { startComfyDouble, type ComfyDouble } from '../../../helpers/doubles/comfyui';
import { fixtureText } from './fixtures';

const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let comfy: ComfyDouble;
beforeAll(async () => {
  comfy = await startComfyDouble({ checkpoints: ['v1-5-pruned-emaonly.ckpt'] });
});
afterAll(() => comfy.close());

describe("a pipeline's input image", () => {
  it('is decoded once and uploaded once when it feeds two LoadImage inputs', async () => {
    const api = JSON.parse(fixtureText('img2img', 'api')) as Record<string, unknown>;
    api['20'] = { class_type: 'LoadImage', inputs: { image: 'example.png' } };
    api['21'] = { class_type: 'SaveImage', inputs: { images: ['20', 0], filename_prefix: 'input' } };
    const { stored } = importPipeline({ api: JSON.stringify(api) });
    const decode = vi.spyOn(imageCodec, 'decode');
    const uploads = comfy.received.uploads.length;
    try {
      const result = await createComfyBackend({ baseUrl: comfy.url }).runPipeline!({
        pipeline: stored, set: [], outputs: [{ name: 'images', label: 'Images', node: '9', kind: 'images' }],
        images: [{ node: '10', input: 'image', b64: TINY_PNG }, { node: '20', input: 'image', b64: TINY_PNG }],
      });
      expect(decode.mock.calls.filter(([b64]) => b64 === TINY_PNG)).toHaveLength(1);
      const sent = fromStored(result.record.prompt);
      const names = ['10', '20'].map((id) => { const input = sent.nodes.get(id)?.inputs.get('image'); return input?.kind === 'value' ? input.value : undefined; });
      expect(names[0]).toMatch(/^atelier-[0-9a-f]{32}\.png$/);
      expect(names[1]).toBe(names[0]);
      const uploaded = comfy.received.uploads.slice(uploads);
      expect(uploaded.map((u) => Buffer.from(u.bytes).toString('base64'))).toEqual([TINY_PNG]);
    } finally {
      decode.mockRestore();
    }
  });
});
