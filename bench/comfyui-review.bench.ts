/**
 * The ComfyUI backend's review of a 1024x1024 img2img request (a JPEG init image and a mask, the
 * SDXL refiner, LoRAs, a style): the run's problems panel asks for it before every run, for every
 * image node, so it must cost nothing beside the image itself. Target 1 ms; the images' own
 * encoding (done once by the editor, not here) is outside the figure.
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { createComfyBackend } from '../api/backends/comfyui/index';
import { median, type BenchResult, type Benchmark } from './harness';

const bench: Benchmark = {
  name: 'comfyui-review',
  async run(): Promise<BenchResult[]> {
    const noise = Buffer.alloc(1024 * 1024 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const raw = { raw: { width: 1024, height: 1024, channels: 3 as const } };
    const init = (await sharp(noise, raw).jpeg({ quality: 90 }).toBuffer()).toString('base64');
    const mask = (await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#fff' } }).png().toBuffer()).toString('base64');
    const backend = createComfyBackend({ baseUrl: 'http://127.0.0.1:8188', names: { checkpoint: 'sd_xl_base_1.0.safetensors', refiner: 'sd_xl_refiner_1.0.safetensors' } });
    const request = {
      prompt: 'a lighthouse on a cliff at dusk, (dramatic sky:1.2)', negative_prompt: 'blurry', init_image: init, mask_image: mask, strength: 0.6,
      use_refiner: true, loras: { 'svc:detail': 0.7, 'my-style': 0.4 }, style_preset: 'cinematic' as const, width: 1024, height: 1024, seed: 7,
    };
    const samples: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      backend.review('sdxl', request);
      samples.push(performance.now() - t);
    }
    return [{ name: 'review, 1024x1024 inpainting with refiner', value: median(samples.slice(20)), unit: 'ms', target: 1, better: 'lower', note: `init image ${Math.round(init.length / 1024)} KB of base64` }];
  },
};

export default bench;
