import { describe, expect, it } from 'vitest';
import { checkPipeline } from '../../../../api/backends/comfyui/pipeline/check';
import { importPipeline } from '../../../../api/backends/comfyui/pipeline/import';
import { extractComfyContent } from '../../../../workflow/embed/index';
import { pngWith } from '../../../helpers/comfy-png';
import { exampleModels, fixtureText, recordedObjectInfo } from './fixtures';

const info = recordedObjectInfo();

describe("the check before sending, against the server's /object_info", () => {
  it('names a missing custom node with the pack that usually provides it', () => {
    const { graph, discovery } = importPipeline({ api: fixtureText('face-detail', 'api') });
    expect(checkPipeline(graph, info, discovery.choices.flatMap((c) => (c.as === 'port' ? c.targets : [])))).toEqual([
      { node: '5', message: "this ComfyUI has no 'UltralyticsDetectorProvider' node (node 5, Face detector); it usually comes from ComfyUI-Impact-Subpack: install it (ComfyUI-Manager can) and restart ComfyUI" },
      { node: '6', message: "this ComfyUI has no 'FaceDetailer' node (node 6, Face Detailer); it usually comes from ComfyUI-Impact-Pack: install it (ComfyUI-Manager can) and restart ComfyUI" },
    ]);
  });

  it('names a missing model file with the closest one the server has', () => {
    const { graph } = importPipeline({ api: fixtureText('flux-dev', 'api') });
    graph.nodes.get('12')?.inputs.set('unet_name', { kind: 'value', value: 'flux1-dev.sft' });
    graph.nodes.get('11')?.inputs.set('clip_name1', { kind: 'value', value: 'nothing-like-it.bin' });
    expect(checkPipeline(graph, info)).toEqual([
      { node: '11', input: 'clip_name1', message: "this ComfyUI has no text encoder 'nothing-like-it.bin' (DualCLIPLoader's clip_name1); it has 'clip_l.safetensors', 't5xxl_fp16.safetensors'" },
      { node: '12', input: 'unet_name', message: "this ComfyUI has no diffusion model 'flux1-dev.sft' (UNETLoader's unet_name); the closest it has is 'flux1-dev.safetensors'" },
    ]);
  });

  it('says a value outside its range or list on the field, and a missing required input', () => {
    const { graph } = importPipeline({ api: fixtureText('sd35', 'api') });
    graph.nodes.get('3')?.inputs.set('steps', { kind: 'value', value: 0 });
    graph.nodes.get('3')?.inputs.set('sampler_name', { kind: 'value', value: 'eular' });
    graph.nodes.get('53')?.inputs.set('width', { kind: 'value', value: 99999 });
    graph.nodes.get('8')?.inputs.delete('vae');
    expect(checkPipeline(graph, info)).toEqual([
      { node: '3', input: 'steps', message: 'KSampler\'s steps is 0, below its minimum 1' },
      { node: '3', input: 'sampler_name', message: "KSampler's sampler_name 'eular' is not one of this ComfyUI's choices; the closest it has is 'euler'" },
      { node: '8', input: 'vae', message: "VAEDecode's required input vae is missing" },
      { node: '53', input: 'width', message: 'EmptySD3LatentImage\'s width is 99999, above its maximum 16384' },
    ]);
  });

  it('every example family passes on a server that has its files, and a fed LoadImage is not judged', () => {
    for (const family of ['flux-dev', 'sd35', 'esrgan-upscale', 'sdxl-refiner', 'img2img', 'inpaint', 'lora'] as const) {
      const { graph, discovery } = importPipeline({ api: fixtureText(family, 'api') }, { info });
      const problems = checkPipeline(graph, info, discovery.choices.filter((c) => c.as === 'port').flatMap((c) => c.targets));
      // The inpainting example is older than VAEEncodeForInpaint's grow_mask_by: a current ComfyUI refuses it as it is.
      expect([family, problems]).toEqual([family, family !== 'inpaint' ? [] : [
        { node: '26', input: 'grow_mask_by', message: "VAEEncodeForInpaint's required input grow_mask_by is missing (ComfyUI's default is 6)" },
      ]]);
    }
    const bare = recordedObjectInfo({ ...exampleModels(), inputs: new Map() });
    const { graph, discovery } = importPipeline({ api: fixtureText('img2img', 'api') }, { info: bare });
    expect(checkPipeline(graph, bare, discovery.choices.flatMap((c) => (c.as === 'port' ? c.targets : [])))).toEqual([]);
    expect(checkPipeline(graph, bare).map((p) => p.input)).toEqual(['image']);
  });
});

describe('a PNG ComfyUI saved', () => {
  it('gives its prompt (API format) and workflow (UI format) texts', async () => {
    const api = fixtureText('sd35', 'api');
    const uiText = fixtureText('sd35', 'ui');
    const bytes = await pngWith([['tEXt', 'prompt', api], ['tEXt', 'workflow', uiText]]);
    expect(extractComfyContent(bytes)).toEqual({ prompt: api, workflow: uiText });
    expect(importPipeline({ api: extractComfyContent(bytes)?.prompt }).discovery.choices.map((c) => c.name)).toEqual(['prompt', 'negative_prompt', 'seed', 'width', 'height']);
  });

  it('reads iTXt for text that is not Latin-1, and nothing from a PNG without them', async () => {
    const prompt = JSON.stringify({ 1: { class_type: 'CLIPTextEncode', inputs: { text: '猫と桜' } } });
    expect(extractComfyContent(await pngWith([['iTXt', 'prompt', prompt]]))).toEqual({ prompt });
    expect(extractComfyContent(await pngWith([]))).toBeUndefined();
  });
});
