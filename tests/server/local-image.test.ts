/**
 * Contract: the local image engine over HTTP answers per section 2.6 with JPEGs of the requested
 * size whose pixels carry the request's meaning, and a client written for the hosted service
 * works against it unchanged.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageResponseSchema, type ImageResponse } from '../../api/image';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { postJson } from './http';
import { blockMeans, correlation, edges, grey, maskPng, meanAbsDiff, shapesJpeg } from './pixels';

const TOKEN = 'local-image-test-token-51';
let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({ ATELIER_LOCAL_TOKEN: TOKEN });
});
afterAll(async () => {
  await server.stop();
});

async function generate(engine: string, body: Record<string, unknown>): Promise<ImageResponse> {
  const res = await postJson(server.url, `/local/image/generate/${engine}`, body, { Authorization: `Bearer ${TOKEN}` });
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toBe('application/json');
  return ImageResponseSchema.parse(JSON.parse(res.text));
}

const b64 = (r: ImageResponse, i = 0) => r.images[i]!.image_b64;

describe('sizes and format', () => {
  it.each([
    ['sdxl', {}, 1024, 1024],
    ['sd', {}, 512, 512],
    ['sdxl', { width: 1536, height: 640 }, 1536, 640],
    ['sdxl', { width: 640, height: 1536 }, 640, 1536],
    ['sd', { width: 576, height: 1024 }, 576, 1024],
    ['sd', { width: 768, height: 512 }, 768, 512],
  ])('%s %o gives a %ix%i JPEG', async (engine, size, width, height) => {
    const res = await generate(engine, { prompt: 'a red barn in a field', steps: 4, ...size });
    expect(res.images).toHaveLength(1);
    const meta = await sharp(Buffer.from(b64(res), 'base64')).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width, height });
    expect(res.images[0]!.removed_for_safety).toBe(false);
    expect(typeof res.prediction_time_ms).toBe('number');
  });
});

describe('determinism and seeds', () => {
  const request = { prompt: 'a lighthouse at dusk', steps: 6, width: 1152, height: 896 };
  it('gives the same bytes for the same request and seed, and other bytes for another seed or prompt', async () => {
    const [a, b, c, d] = await Promise.all([
      generate('sdxl', { ...request, seed: 42 }),
      generate('sdxl', { ...request, seed: 42 }),
      generate('sdxl', { ...request, seed: 43 }),
      generate('sdxl', { ...request, prompt: 'a field of sunflowers at noon', seed: 42 }),
    ]);
    expect(b64(a)).toBe(b64(b));
    expect(a.images[0]!.seed).toBe(42);
    expect(b64(c)).not.toBe(b64(a));
    expect(meanAbsDiff(await grey(b64(d)), await grey(b64(a)))).toBeGreaterThan(5);
  });
  it('gives num_images distinct images, each with its seed', async () => {
    const res = await generate('sd', { prompt: 'a koi pond', steps: 4, num_images: 3, seed: 7 });
    expect(res.images).toHaveLength(3);
    expect(new Set(res.images.map((i) => i.image_b64)).size).toBe(3);
    expect(new Set(res.images.map((i) => i.seed)).size).toBe(3);
  });
  it('picks a random seed for null, returns it, and that seed reproduces the image', async () => {
    const [first, second] = await Promise.all([generate('sd', { prompt: 'a koi pond', steps: 4, seed: null }), generate('sd', { prompt: 'a koi pond', steps: 4, seed: null })]);
    const seed = first.images[0]!.seed!;
    expect(Number.isInteger(seed)).toBe(true);
    expect(second.images[0]!.seed).not.toBe(seed);
    const again = await generate('sd', { prompt: 'a koi pond', steps: 4, seed });
    expect(b64(again)).toBe(b64(first));
  });
});

describe('what the request says shows in the picture', () => {
  /** Mean distance of each pixel's channels from their own mean: 0 for a picture with no colour. */
  async function colourfulness(image: string): Promise<number> {
    const { data } = await sharp(Buffer.from(image, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let sum = 0;
    for (let i = 0; i < data.length; i += 3) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      const m = (r + g + b) / 3;
      sum += Math.abs(r - m) + Math.abs(g - m) + Math.abs(b - m);
    }
    return sum / (data.length / 3);
  }
  const meanEdge = async (image: string) => edges(await grey(image)).reduce((a, b) => a + b, 0) / (1024 * 1024);
  const request = { prompt: 'a red sports car on a sunny coastal road', seed: 21, steps: 12 };

  it('a style preset restyles the picture: Monochrome takes the colour out, presets differ from each other', async () => {
    const [plain, mono, pixel] = await Promise.all([
      generate('sdxl', request),
      generate('sdxl', { ...request, style_preset: 'Monochrome' }),
      generate('sdxl', { ...request, style_preset: 'pixel-art' }),
    ]);
    expect(await colourfulness(b64(plain))).toBeGreaterThan(15);
    expect(await colourfulness(b64(mono))).toBeLessThan(3);
    expect(meanAbsDiff(await grey(b64(pixel)), await grey(b64(plain)))).toBeGreaterThan(3);
  });

  it('more steps give a cleaner picture (less edge energy from noise)', async () => {
    const [few, many] = await Promise.all([generate('sdxl', { ...request, steps: 2 }), generate('sdxl', { ...request, steps: 60 })]);
    expect(await meanEdge(b64(few))).toBeGreaterThan(1.5 * (await meanEdge(b64(many))));
  });

  it('subject transfer carries its sample into the picture', async () => {
    const sample = await shapesJpeg(256, 256, '<rect width="256" height="256" fill="#10e020"/>', '#10e020');
    const prompt = 'a portrait of sks in a library';
    const [plain, carried] = await Promise.all([
      generate('sdxl', { prompt, seed: 4, steps: 8 }),
      generate('sdxl', { prompt, seed: 4, steps: 8, transfer_images: { sks: [sample] } }),
    ]);
    const greenShare = async (image: string) => {
      const { data } = await sharp(Buffer.from(image, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      let green = 0;
      for (let i = 0; i < data.length; i += 3) if (data[i + 1]! > 150 && data[i]! < 100 && data[i + 2]! < 100) green++;
      return green / (data.length / 3);
    };
    expect(await greenShare(b64(carried))).toBeGreaterThan(0.05);
    expect(await greenShare(b64(plain))).toBeLessThan(0.01);
  });
});

describe('image inputs', () => {
  const W = 512;
  const H = 512;
  let input: string;
  beforeAll(async () => {
    input = await shapesJpeg(W, H, '<circle cx="256" cy="256" r="150" fill="#f0c020"/><rect x="40" y="40" width="120" height="80" fill="#e03030"/>');
  });

  it('img2img moves further from its input as strength grows, and strength 0 keeps it', async () => {
    const original = await grey(input);
    const distances: number[] = [];
    for (const strength of [0, 0.3, 0.6, 0.95]) {
      const res = await generate('sd', { prompt: 'a watercolour of the sun', init_image: input, strength, seed: 3, steps: 10 });
      distances.push(meanAbsDiff(await grey(b64(res)), original));
    }
    expect(distances[0]).toBeLessThan(3);
    for (let i = 1; i < distances.length; i++) expect(distances[i]).toBeGreaterThan(distances[i - 1]!);
  });

  it('resizes an input image to the requested size', async () => {
    const small = await shapesJpeg(200, 120, '<rect x="50" y="30" width="100" height="60" fill="#fff"/>');
    const res = await generate('sd', { prompt: 'a white box', init_image: small, strength: 0.5, width: 768, height: 512, steps: 4 });
    expect(await sharp(Buffer.from(b64(res), 'base64')).metadata()).toMatchObject({ width: 768, height: 512 });
  });

  it('inpainting changes the white area of the mask and keeps the rest', async () => {
    const mask = await maskPng(W, H, { left: 256, top: 0, width: 256, height: 512 });
    const res = await generate('sd', { prompt: 'a stormy sea', init_image: input, mask_image: mask, seed: 11, steps: 12 });
    const [out, original] = [await grey(b64(res)), await grey(input)];
    // Away from the mask's edge, where JPEG blocks straddle both sides.
    const kept = meanAbsDiff(out, original, (x) => x < 240);
    const painted = meanAbsDiff(out, original, (x) => x >= 272);
    expect(kept).toBeLessThan(3);
    expect(painted).toBeGreaterThan(10);
  });

  it('ControlNet follows the edges of its control image', async () => {
    const square = await shapesJpeg(1024, 1024, '<rect x="200" y="200" width="620" height="620" fill="none" stroke="#fff" stroke-width="24"/>', '#000');
    const circle = await shapesJpeg(1024, 1024, '<circle cx="512" cy="512" r="330" fill="none" stroke="#fff" stroke-width="24"/>', '#000');
    const request = { prompt: 'a stone courtyard', controlnet: 'svc:canny_sdxl', seed: 5 };
    const [onSquare, onCircle] = await Promise.all([
      generate('controlnet-sdxl', { ...request, controlnet_image: square }),
      generate('controlnet-sdxl', { ...request, controlnet_image: circle }),
    ]);
    const edgeBlocks = async (image: string) => blockMeans(edges(await grey(image)), 1024, 1024, 32);
    const squareEdges = await edgeBlocks(square);
    const fromSquare = await edgeBlocks(b64(onSquare));
    const fromCircle = await edgeBlocks(b64(onCircle));
    expect(correlation(fromSquare, squareEdges)).toBeGreaterThan(0.4);
    expect(correlation(fromSquare, squareEdges)).toBeGreaterThan(correlation(fromCircle, squareEdges) + 0.2);
  });
});

describe('a client written for the hosted service, unchanged', () => {
  it('generates and saves JPEGs as the usage examples do', async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'atelier-hosted-client-'));
    const IMAGE_BASE_URL = `${server.url}/local/image`;
    process.env.ACCESS_TOKEN = TOKEN;
    try {
      // As a usage example of the hosted service would write it: token from the environment,
      // JSON body, images[i].image_b64 decoded and saved as .jpg.
      const response = await fetch(`${IMAGE_BASE_URL}/generate/sdxl`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${process.env.ACCESS_TOKEN}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ prompt: 'A majestic lion jumping from a big stone at night', num_images: 2, steps: 8, seed: 1 }),
      });
      if (response.status !== 200) throw new Error(await response.text());
      const data = (await response.json()) as { images: { image_b64: string }[] };
      data.images.forEach((image, i) => writeFileSync(join(outDir, `image_${i}.jpg`), Buffer.from(image.image_b64, 'base64')));
    } finally {
      delete process.env.ACCESS_TOKEN;
    }
    expect(readdirSync(outDir).sort()).toEqual(['image_0.jpg', 'image_1.jpg']);
    for (const file of readdirSync(outDir)) {
      expect(await sharp(readFileSync(join(outDir, file))).metadata()).toMatchObject({ format: 'jpeg', width: 1024, height: 1024 });
    }
  });
});
