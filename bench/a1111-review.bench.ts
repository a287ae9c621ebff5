/**
 * The AUTOMATIC1111 backend's `review` of a 1024×1024 inpainting request (a noisy JPEG of about
 * 1 MB of base64 as both image and mask): the executor asks it of every image node before a run,
 * so it must not scan the images. Target 1 ms (the image's own encoding excluded).
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { createA1111Backend } from '../api/backends/a1111/index';
import { median, type Benchmark } from './harness';

const bench: Benchmark = {
  name: 'a1111-review',
  async run() {
    const noise = Buffer.alloc(1024 * 1024 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const image = (await sharp(noise, { raw: { width: 1024, height: 1024, channels: 3 } }).jpeg({ quality: 90 }).toBuffer()).toString('base64');
    const backend = createA1111Backend({ baseUrl: 'http://127.0.0.1:7860', names: { checkpoint: 'sd_xl_base_1.0.safetensors' } });
    const request = { prompt: 'a (red:1.2) fox [in snow]', init_image: image, mask_image: image, strength: 0.6, loras: { detail: 0.5 }, style_preset: 'anime' as const };
    const samples: number[] = [];
    for (let i = 0; i < 250; i++) {
      const start = performance.now();
      backend.review('sdxl', request);
      if (i >= 50) samples.push(performance.now() - start);
    }
    return [{ name: 'review, 1024² inpainting', value: median(samples), unit: 'ms', target: 1, better: 'lower', note: `${image.length} characters of base64 per image` }];
  },
};

export default bench;
