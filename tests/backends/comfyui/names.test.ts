import { afterEach, describe, expect, it } from 'vitest';
import { comboChoices } from '../../../api/backends/comfyui/names';
import { startComfyDouble, type ComfyDouble } from '../../helpers/doubles/comfyui';
import { SAMPLER_NAMES } from '../../helpers/doubles/comfyui-nodes';
import { comfyOn } from './helpers';

let comfy: ComfyDouble | undefined;
afterEach(async () => { await comfy?.close(); comfy = undefined; });

describe('ComfyUI listNames', () => {
  it("lists what ComfyUI has, from each loader's /object_info and /embeddings", async () => {
    comfy = await startComfyDouble({ checkpoints: ['a.safetensors', 'b.ckpt'], loras: ['l.safetensors'], embeddings: ['easynegative.safetensors', 'bad-hands.pt'] });
    const names = await comfyOn(comfy).listNames!();
    expect(names).toEqual({
      checkpoints: ['a.safetensors', 'b.ckpt'],
      samplers: SAMPLER_NAMES,
      loras: ['l.safetensors'],
      vaes: ['sdxl_vae.safetensors', 'pixel_space'],
      controlnets: ['diffusers_xl_canny_full.safetensors', 'diffusers_xl_depth_full.safetensors'],
      embeddings: ['easynegative', 'bad-hands'],
    });
    expect(comfy.received.requests.map((r) => r.path).sort()).toEqual([
      '/embeddings', '/object_info/CheckpointLoaderSimple', '/object_info/ControlNetLoader', '/object_info/KSampler', '/object_info/LoraLoader', '/object_info/VAELoader',
    ]);
  });

  it('leaves out a list ComfyUI cannot give (a node class it lacks)', async () => {
    comfy = await startComfyDouble({ without: ['ControlNetLoader'] });
    const names = await comfyOn(comfy).listNames!();
    expect(names.controlnets).toBeUndefined();
    expect(names.checkpoints).toHaveLength(3);
  });

  it("reads combo inputs in the classic form and in the newer schema's COMBO form", () => {
    expect(comboChoices([['a', 'b'], { tooltip: 't' }])).toEqual(['a', 'b']);
    expect(comboChoices(['COMBO', { options: ['x', 'y'] }])).toEqual(['x', 'y']);
    expect(comboChoices(['INT', { min: 0 }])).toBeUndefined();
    expect(comboChoices('nope')).toBeUndefined();
  });
});
