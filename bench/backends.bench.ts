/**
 * The image backends, on a 1024×1024 image-to-image request (a noisy JPEG of about 1 MB of
 * base64, a style, LoRAs): what translating costs, and how often the input image is decoded or
 * encoded on its way to each backend's double.
 * - review: the executor asks it of every image node before every run (and the estimate at
 *   every edit), so it must not scan the image. Target 1 ms, the image's own encoding excluded.
 * - decodes of the input image per request: at most 1 (ComfyUI and OpenAI upload bytes; the
 *   service's API, AUTOMATIC1111 and Gemini take base64 as it is: 0; fal takes this image as a
 *   data URI: 0; Replicate takes it through its files API, being over its 256 KB for data URIs:
 *   1), counted through each backend's one decode function; re-encodes: 0 (the bytes the double
 *   received are the input's own).
 * - the check of every image an API answers with (api/image-check.ts), on that JPEG: it scans
 *   the base64 and decodes a few header and tail bytes, never the whole image: target at most half
 *   the CPU time of one full decode of the same image.
 * The doubles live with the tests (tests/helpers/doubles/), written from each project's source.
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { createA1111Backend } from '../api/backends/a1111/index';
import { createComfyBackend } from '../api/backends/comfyui/index';
import { createGoogleBackend } from '../api/backends/google/index';
import { imageCodec as comfyCodec } from '../api/backends/comfyui/images';
import { createFalBackend } from '../api/backends/fal/index';
import { falCodec } from '../api/backends/fal/uploads';
import { createOpenAIImagesBackend } from '../api/backends/openai/index';
import { createReplicateBackend } from '../api/backends/replicate/index';
import { replicateCodec } from '../api/backends/replicate/files';
import { imageCodec as openaiCodec } from '../api/backends/openai/codec';
import type { ImageBackend } from '../api/backends/types';
import { checkImageResponse } from '../api/image-check';
import { base64ToBytes } from '../api/image-data';
import type { ImageRequest } from '../api/image-schema';
import { startA1111Double } from '../tests/helpers/doubles/a1111';
import { startComfyDouble } from '../tests/helpers/doubles/comfyui';
import { startFalDouble } from '../tests/helpers/doubles/fal';
import { startReplicateDouble } from '../tests/helpers/doubles/replicate';
import { startGeminiDouble } from '../tests/helpers/doubles/gemini';
import { startOpenAIImagesDouble } from '../tests/helpers/doubles/openai-images';
import { median, type BenchResult, type Benchmark } from './harness';

/** Counts the calls of `object[key]` while `body` runs, with the input's length, then puts it back. */
async function counting<T extends object, K extends keyof T>(object: T, key: K, body: () => Promise<void>): Promise<number[]> {
  const original = object[key] as (...args: unknown[]) => unknown;
  const lengths: number[] = [];
  (object as Record<K, unknown>)[key] = (...args: unknown[]) => {
    lengths.push(typeof args[0] === 'string' ? args[0].length : -1);
    return original.apply(object, args);
  };
  try {
    await body();
  } finally {
    (object as Record<K, unknown>)[key] = original;
  }
  return lengths;
}

function reviewMs(backend: ImageBackend, request: ImageRequest): number {
  const samples: number[] = [];
  for (let i = 0; i < 220; i++) {
    const start = performance.now();
    backend.review('sdxl', request);
    if (i >= 20) samples.push(performance.now() - start);
  }
  return median(samples);
}

const bench: Benchmark = {
  name: 'backends',
  async run(): Promise<BenchResult[]> {
    const noise = Buffer.alloc(1024 * 1024 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const jpeg = await sharp(noise, { raw: { width: 1024, height: 1024, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
    const init = jpeg.toString('base64');
    const request: ImageRequest = {
      prompt: 'a lighthouse on a cliff at dusk, (dramatic sky:1.2)', negative_prompt: 'blurry', init_image: init, strength: 0.6,
      loras: { 'svc:detail': 0.7 }, style_preset: 'cinematic', width: 1024, height: 1024, seed: 7, steps: 4,
    };
    const note = `${Math.round(init.length / 1024)} KB of base64 in`;
    const results: BenchResult[] = [];
    // CPU time, not wall time: the figure is a scan of a megabyte, which a loaded machine's time
    // slices would otherwise decide. Set beside one full decode of the same text, interleaved.
    const cpuMs = (body: () => void): number => {
      const before = process.cpuUsage();
      body();
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1000;
    };
    let checkMs = 0;
    let decodeMs = 0;
    for (let i = 0; i < 60; i++) {
      const check = cpuMs(() => checkImageResponse({ images: [{ image_b64: init }] }, 'bench'));
      const decode = cpuMs(() => base64ToBytes(init));
      if (i >= 10) {
        checkMs += check / 50;
        decodeMs += decode / 50;
      }
    }
    results.push({ name: 'answer check, 1024² JPEG (CPU time)', value: checkMs, unit: 'ms', better: 'lower', note: `${note}; header and end read` });
    results.push({ name: 'answer check / one full decode', value: checkMs / decodeMs, unit: '×', target: 0.5, better: 'lower', note: `a decode takes ${decodeMs.toFixed(1)} ms; the check decodes no image whole` });

    const comfy = await startComfyDouble({ loras: ['detail.safetensors'] });
    const a1111 = await startA1111Double({ loras: [{ name: 'detail' }] });
    const openai = await startOpenAIImagesDouble({ apiKey: 'sk-bench-0123456789abcdef' });
    const fal = await startFalDouble({ queuePolls: 0, progressPolls: 0 });
    const replicate = await startReplicateDouble({ coldPolls: 0, steps: 0 });
    const gemini = await startGeminiDouble();
    try {
      const backends = {
        comfyui: createComfyBackend({ baseUrl: comfy.url, names: { checkpoint: 'sd_xl_base_1.0.safetensors', assets: { 'svc:detail': 'detail.safetensors' } } }),
        a1111: createA1111Backend({ baseUrl: a1111.url, names: { checkpoint: 'sd_xl_base_1.0.safetensors', assets: { 'svc:detail': 'detail' } } }),
        openai: createOpenAIImagesBackend({ baseUrl: openai.url, token: openai.apiKey }),
        fal: createFalBackend({ baseUrl: fal.url, token: fal.apiKey }),
        replicate: createReplicateBackend({ baseUrl: replicate.url, token: replicate.token }),
        google: createGoogleBackend({ baseUrl: gemini.url, token: gemini.apiKey }),
      };
      for (const [kind, backend] of Object.entries(backends)) {
        results.push({ name: `${kind}: review, 1024² img2img`, value: reviewMs(backend, request), unit: 'ms', target: 1, better: 'lower', note });
      }

      const decodes = {
        comfyui: await counting(comfyCodec, 'decode', async () => void (await backends.comfyui.generate('sdxl', request))),
        a1111: [] as number[],
        google: [] as number[],
        openai: await counting(openaiCodec, 'bytes', async () => void (await backends.openai.generate('sdxl', request))),
        fal: await counting(falCodec, 'bytes', async () => void (await backends.fal.generate('sdxl', request))),
        replicate: await counting(replicateCodec, 'bytes', async () => void (await backends.replicate.generate('sdxl', request))),
      };
      await backends.a1111.generate('sdxl', request);
      await backends.google.generate('sdxl', request);
      type GeminiBody = { contents: { parts: { inlineData?: { data: string } }[] }[] };
      const received = {
        comfyui: comfy.received.uploads.at(-1)?.bytes,
        a1111: a1111.generations.at(-1)?.fields.init_images,
        openai: openai.received.at(-1)?.files?.find((f) => f.field.startsWith('image'))?.bytes,
        fal: fal.jobs.at(-1)?.input.image_url,
        replicate: [...replicate.files.entries()].find(([key]) => key.startsWith('files/'))?.[1].bytes,
        google: (gemini.received.at(-1)?.json as GeminiBody | undefined)?.contents[0]?.parts[0]?.inlineData?.data,
      };
      const same = (bytes: Uint8Array | undefined) => bytes !== undefined && Buffer.compare(Buffer.from(bytes), jpeg) === 0;
      const untouched = {
        comfyui: same(received.comfyui),
        a1111: Array.isArray(received.a1111) && received.a1111[0] === init,
        openai: same(received.openai),
        fal: received.fal === `data:image/jpeg;base64,${init}`,
        replicate: same(received.replicate),
        google: received.google === init,
      };
      const how = { comfyui: 'bytes uploaded', a1111: 'base64 sent as it came', openai: 'bytes uploaded', fal: 'base64 sent as it came, in a data URI', replicate: 'bytes uploaded to its files API', google: 'base64 sent as it came' };
      for (const kind of ['comfyui', 'a1111', 'openai', 'fal', 'replicate', 'google'] as const) {
        const count = decodes[kind].filter((length) => length === init.length).length;
        results.push({ name: `${kind}: input image decodes per request`, value: count, unit: '', target: 1, better: 'lower', note: how[kind] });
        results.push({ name: `${kind}: input image re-encodes per request`, value: untouched[kind] ? 0 : 1, unit: '', target: 0, better: 'lower', note: untouched[kind] ? 'the double received the input\'s own bytes' : 'the double received other bytes' });
      }
    } finally {
      await Promise.all([comfy.close(), a1111.close(), openai.close(), fal.close(), replicate.close(), gemini.close()]);
    }
    return results;
  },
};

export default bench;
