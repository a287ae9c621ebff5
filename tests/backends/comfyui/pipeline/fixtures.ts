/** The pipeline fixtures (tests/fixtures/comfyui-pipelines, see its README) and a recorded /object_info. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readObjectInfo, type ObjectInfo } from '../../../../api/backends/comfyui/pipeline/object-info';
import { nodeClasses, nodeInfo, type Models } from '../../../helpers/doubles/comfyui-nodes';

const DIR = join(import.meta.dirname, '../../../fixtures/comfyui-pipelines');

export const FAMILIES = ['flux-dev', 'sd35', 'esrgan-upscale', 'sdxl-refiner', 'img2img', 'inpaint', 'lora'] as const;
export type Family = (typeof FAMILIES)[number];

export function fixtureText(name: string, format: 'api' | 'ui'): string {
  return readFileSync(join(DIR, `${name}.${format}.json`), 'utf8');
}

/** The files a ComfyUI has that can run every example. */
export function exampleModels(): Models {
  return {
    checkpoints: ['sd_xl_base_1.0.safetensors', 'sd_xl_refiner_1.0.safetensors', 'v1-5-pruned-emaonly.ckpt', 'sd3.5_large_fp8_scaled.safetensors', '512-inpainting-ema.safetensors'],
    loras: ['epiNoiseoffset_v2.safetensors'],
    vaes: ['ae.safetensors'],
    controlnets: [],
    embeddings: [],
    unets: ['flux1-dev.safetensors'],
    textEncoders: ['clip_l.safetensors', 't5xxl_fp16.safetensors'],
    upscalers: ['RealESRGAN_x2.pth'],
    inputs: new Map([['example.png', new Uint8Array()], ['yosemite_inpaint_example.png', new Uint8Array()]]),
  };
}

/** `/object_info` as the double answers it, for these models. */
export function recordedObjectInfoJson(models: Models = exampleModels()): Record<string, unknown> {
  return Object.fromEntries(Object.entries(nodeClasses(models)).map(([name, cls]) => [name, nodeInfo(name, cls)]));
}

export function recordedObjectInfo(models?: Models): ObjectInfo {
  return readObjectInfo(JSON.parse(JSON.stringify(recordedObjectInfoJson(models))));
}
