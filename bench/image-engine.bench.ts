/**
 * The local image engine on its own, without HTTP: a 1024x1024 SDXL text-to-image request end to
 * end (synthesis and JPEG encode, target 60 ms), the share of each, the throughput of 8
 * concurrent requests, and the heavier modes for reference.
 */
import sharp from 'sharp';
import { validateImageRequest, type ResolvedImageRequest } from '../api/image';
import { generateImages } from '../server/engines/image';
import { synthesise } from '../server/engines/image/synthesise';
import { encodeJpeg } from '../server/engines/image/codec';
import { median, type Benchmark, type BenchResult } from './harness';

const RUNS = 40;

function request(engine: string, body: Record<string, unknown>): ResolvedImageRequest {
  const v = validateImageRequest(engine, body);
  if (!v.ok) throw new Error(`benchmark request is invalid: ${JSON.stringify(v.issues)}`);
  return v.value;
}

const textToImage = (seed: number) => request('sdxl', { prompt: 'a cabin by a lake with mountains at sunset, pine trees', seed });

async function timeRuns(runs: number, once: (k: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let k = 0; k < runs; k++) {
    const start = performance.now();
    await once(k);
    samples.push(performance.now() - start);
  }
  return samples;
}

const bench: Benchmark = {
  name: 'image-engine',
  async run(): Promise<BenchResult[]> {
    // Warm up the JIT and libvips before measuring.
    await timeRuns(8, (k) => generateImages(textToImage(k)));

    const latency = median(await timeRuns(RUNS, (k) => generateImages(textToImage(1000 + k))));
    const synth: number[] = [];
    const encode: number[] = [];
    for (let k = 0; k < RUNS; k++) {
      const a = performance.now();
      const pixels = synthesise(textToImage(2000 + k), 2000 + k, {});
      const b = performance.now();
      await encodeJpeg(pixels, 1024, 1024);
      synth.push(b - a);
      encode.push(performance.now() - b);
    }

    const rounds = 5;
    const concurrent: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const start = performance.now();
      await Promise.all(Array.from({ length: 8 }, (_, k) => generateImages(textToImage(3000 + r * 8 + k))));
      concurrent.push(performance.now() - start);
    }
    const batch = median(concurrent);

    const photo = (await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#6a8caf' } })
      .composite([{ input: Buffer.from('<svg width="1024" height="1024"><circle cx="400" cy="420" r="220" fill="#d04030"/><rect x="640" y="200" width="160" height="600" fill="#203080"/></svg>') }])
      .jpeg().toBuffer()).toString('base64');
    const img2img = median(await timeRuns(15, (k) => generateImages(request('sdxl', { prompt: 'a watercolor harbour', seed: k, init_image: photo, strength: 0.6 }))));
    const canny = median(await timeRuns(15, (k) => generateImages(request('controlnet-sdxl', { prompt: 'a castle', seed: k, controlnet: 'svc:canny_sdxl', controlnet_image: photo }))));

    return [
      { name: '1024x1024 SDXL text-to-image, whole request', value: latency, unit: 'ms', target: 60, better: 'lower', note: `median of ${RUNS}` },
      { name: '  of which synthesis (JS)', value: median(synth), unit: 'ms', better: 'lower' },
      { name: '  of which JPEG encode (libvips)', value: median(encode), unit: 'ms', better: 'lower' },
      { name: '8 concurrent 1024x1024 requests, wall time', value: batch, unit: 'ms', better: 'lower', note: `median of ${rounds} rounds` },
      { name: '8 concurrent 1024x1024 requests, throughput', value: (8 * 1000) / batch, unit: 'images/s', better: 'higher' },
      { name: '1024x1024 img2img (decode + blend)', value: img2img, unit: 'ms', better: 'lower' },
      { name: '1024x1024 ControlNet canny (decode + preprocess)', value: canny, unit: 'ms', better: 'lower' },
    ];
  },
};

export default bench;
