/**
 * How often a ComfyUI workflow node's images change form on their way to ComfyUI and back, run
 * through the node itself on the ComfyUI double: image to image whose one image port feeds two
 * LoadImage inputs (the picture and a copy saved beside the result), a 512×512 noisy JPEG in.
 * Counted through the backend's one codec (api/backends/comfyui/images.ts), over two runs (the
 * second finds the file uploaded already).
 */
import sharp from 'sharp';
import { createComfyBackend } from '../api/backends/comfyui/index';
import { imageCodec } from '../api/backends/comfyui/images';
import { importPipeline } from '../api/backends/comfyui/pipeline/import';
import { comfyWorkflowNode, comfyWorkflowParams } from '../nodes/comfy-workflow';
import type { RunContext } from '../nodes/types';
import { fixtureText } from '../tests/backends/comfyui/pipeline/fixtures';
import { startComfyDouble } from '../tests/helpers/doubles/comfyui';
import type { BenchResult } from './harness';

const RUNS = 2;

/** Counts `imageCodec[key]` calls (with the input's length, or the output's) while `body` runs. */
async function counting(key: 'decode' | 'encode', body: () => Promise<void>): Promise<number[]> {
  const original = imageCodec[key] as (arg: never) => unknown;
  const sizes: number[] = [];
  (imageCodec as Record<string, unknown>)[key] = (arg: string | Uint8Array) => {
    sizes.push(arg.length);
    return original(arg as never);
  };
  try {
    await body();
  } finally {
    (imageCodec as Record<string, unknown>)[key] = original;
  }
  return sizes;
}

/** The figures of the pipeline path, for bench/comfy-pipeline.bench.ts. */
export async function pipelineImageFigures(): Promise<BenchResult[]> {
  const noise = Buffer.alloc(512 * 512 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const jpeg = await sharp(noise, { raw: { width: 512, height: 512, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
  const init = jpeg.toString('base64');

  // img2img, with a second LoadImage (a copy of the input saved beside the result) fed by the same port.
  const api = JSON.parse(fixtureText('img2img', 'api')) as Record<string, unknown>;
  api['20'] = { class_type: 'LoadImage', inputs: { image: 'example.png' } };
  api['21'] = { class_type: 'SaveImage', inputs: { images: ['20', 0], filename_prefix: 'input' }, _meta: { title: 'Input copy' } };
  const params = comfyWorkflowParams(importPipeline({ api: JSON.stringify(api) }), 'img2img.json');
  params.fields = params.fields.filter((c) => !c.targets.some((t) => t.node === '20'))
    .map((c) => (c.kind === 'image' ? { ...c, targets: [{ node: '10', input: 'image' }, { node: '20', input: 'image' }] } : c));
  const port = params.fields.find((c) => c.kind === 'image')!.name;

  const comfy = await startComfyDouble({ checkpoints: ['v1-5-pruned-emaonly.ckpt'] });
  try {
    const backend = createComfyBackend({ baseUrl: comfy.url });
    const ctx: RunContext = {
      signal: new AbortController().signal,
      api: { image: backend, chat: { complete: () => Promise.reject(new Error('no chat')), stream: () => { throw new Error('no chat'); } } },
      settings: { chatModel: 'm' },
      progress: () => undefined,
      partialText: () => undefined,
      randomSeed: () => 7,
    };
    const decodes: number[] = [];
    const encodes: number[] = [];
    let outputImages = 0;
    let untouched = true;
    for (let run = 0; run < RUNS; run++) {
      const before = comfy.received.uploads.length;
      let made = 0;
      encodes.push(...await counting('encode', async () => {
        decodes.push(...await counting('decode', async () => {
          const out = await comfyWorkflowNode.run({ params, inputs: { [port]: { kind: 'image', value: { b64: init, mime: 'image/jpeg' } } }, ctx });
          for (const value of Object.values(out)) if (value.kind === 'images') made += value.value.length;
        }));
      }));
      outputImages += made;
      for (const upload of comfy.received.uploads.slice(before)) untouched &&= Buffer.compare(Buffer.from(upload.bytes), jpeg) === 0;
    }
    const inputDecodes = decodes.filter((length) => length === init.length).length / RUNS;
    return [
      { name: 'pipeline: input image decodes per run', value: inputDecodes, unit: '', target: 1, better: 'lower', note: `one image into 2 LoadImage inputs, ${Math.round(init.length / 1024)} KB of base64; uploaded as bytes, by content` },
      { name: 'pipeline: input image re-encodes per run', value: untouched ? 0 : 1, unit: '', target: 0, better: 'lower', note: untouched ? "the double received the input's own bytes" : 'the double received other bytes' },
      { name: 'pipeline: encodes per output image', value: outputImages === 0 ? NaN : encodes.length / outputImages, unit: '', target: 1, better: 'lower', note: `${outputImages} pictures over ${RUNS} runs, each fetched as bytes (GET /view) and encoded once for the node's output` },
    ];
  } finally {
    await comfy.close();
  }
}
