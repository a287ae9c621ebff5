/** The local image engine's input modes: img2img, inpainting, ControlNet, subject transfer, and bad input images. */
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { generateImages, ImageInputError } from '../../server/engines/image';
import { layoutSubjects } from '../../server/engines/image/transfer';
import { blurPlane, correlation, decode, luma, makeImage, meanAbsDiff, photoLike, resolved, sobelMagnitude, type Pixels } from './image-test-utils';

let photo: string;
let photoPixels: Pixels;

beforeAll(async () => {
  photo = await makeImage(400, 300, photoLike(0), 'jpeg');
  // What the engine sees: the input stretched to the output size.
  const { data } = await sharp(Buffer.from(photo, 'base64')).resize(512, 512, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  photoPixels = { width: 512, height: 512, data };
});

async function first(engine: string, body: Record<string, unknown>): Promise<Pixels> {
  return decode((await generateImages(resolved(engine, body))).images[0]!.image_b64);
}

describe('image to image', () => {
  it('strength 0 returns the input (up to JPEG error), resized to the requested size', async () => {
    const out = await first('sd', { prompt: 'a watercolor forest', seed: 3, init_image: photo, strength: 0 });
    expect([out.width, out.height]).toEqual([512, 512]);
    expect(meanAbsDiff(out, photoPixels)).toBeLessThan(2.5);
  });

  it('moves away from the input steadily as strength grows', async () => {
    const distances: number[] = [];
    for (const strength of [0, 0.2, 0.4, 0.6, 0.8, 1]) {
      distances.push(meanAbsDiff(await first('sd', { prompt: 'a watercolor forest', seed: 3, init_image: photo, strength }), photoPixels));
    }
    for (let k = 1; k < distances.length; k++) expect(distances[k]!, `strength step ${k}`).toBeGreaterThan(distances[k - 1]! + 1);
    expect(distances[5]).toBeGreaterThan(25);
  });

  it('the prompt still shows: an input restyled toward red differs from one restyled toward blue', async () => {
    const red = await first('sd', { prompt: 'red', seed: 3, init_image: photo, strength: 0.6 });
    const blue = await first('sd', { prompt: 'blue', seed: 3, init_image: photo, strength: 0.6 });
    const redness = (p: Pixels) => { let s = 0; for (let i = 0; i < p.data.length; i += 3) s += p.data[i]! - p.data[i + 2]!; return s / (p.data.length / 3); };
    expect(redness(red)).toBeGreaterThan(redness(blue) + 20);
  });
});

describe('inpainting', () => {
  it('changes only where the mask is white; black stays the input, grey blends part way', async () => {
    // Left third black, middle third grey, right third white (the mask is resized like the image).
    const mask = await makeImage(90, 60, (x) => (x < 30 ? [0, 0, 0] : x < 60 ? [128, 128, 128] : [255, 255, 255]));
    const out = await first('sd', { prompt: 'a red flower', seed: 5, init_image: photo, mask_image: mask, strength: 1 });
    const black = meanAbsDiff(out, photoPixels, (x) => x < 160);
    const grey = meanAbsDiff(out, photoPixels, (x) => x > 185 && x < 325);
    const white = meanAbsDiff(out, photoPixels, (x) => x > 355);
    expect(black).toBeLessThan(2.5);
    expect(grey).toBeGreaterThan(black + 5);
    expect(white).toBeGreaterThan(grey * 1.5);
  });

  it('an all-black mask keeps the whole input', async () => {
    const mask = await makeImage(16, 16, () => [0, 0, 0]);
    const out = await first('sd', { prompt: 'a red flower', seed: 5, init_image: photo, mask_image: mask });
    expect(meanAbsDiff(out, photoPixels)).toBeLessThan(2.5);
  });
});

/** A sun, a house with a roof and a path: black outlines on white, or filled black shapes. */
function drawing(filled: boolean) {
  return (x: number, y: number): readonly [number, number, number] => {
    const r = Math.hypot(x - 150, y - 120);
    const sun = filled ? r < 60 : Math.abs(r - 60) < 3;
    const inHouse = x > 220 && x < 420 && y > 260 && y < 470;
    const house = filled ? inHouse : (x > 217 && x < 423 && y > 257 && y < 473) && !(x > 223 && x < 417 && y > 263 && y < 467);
    const roofEdge = Math.abs(x - 320) - (y - 140) * (100 / 120);
    const roof = y < 260 && y > 140 && (filled ? roofEdge < 0 : Math.abs(roofEdge) < 3);
    const path = Math.abs(x - (y - 300)) < (filled ? 12 : 3) && y > 470;
    return sun || house || roof || path ? [0, 0, 0] : [255, 255, 255];
  };
}

/** Correlation of the output's edges with the control image's edges (both softened by 3 px). */
function edgeAgreement(out: Pixels, control: Pixels): number {
  const a = blurPlane(sobelMagnitude(luma(out), out.width, out.height), out.width, out.height, 3);
  const b = blurPlane(sobelMagnitude(luma(control), control.width, control.height), control.width, control.height, 3);
  return correlation(a, b);
}

describe('ControlNet', () => {
  const maps = new Map<boolean, { b64: string; pixels: Pixels }>();
  let unrelated: string;

  beforeAll(async () => {
    for (const filled of [false, true]) {
      const b64 = await makeImage(640, 640, drawing(filled));
      const { data } = await sharp(Buffer.from(b64, 'base64')).resize(1024, 1024, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
      maps.set(filled, { b64, pixels: { width: 1024, height: 1024, data } });
    }
    unrelated = await makeImage(640, 640, (x, y) => (Math.hypot(x - 450, y - 450) < 120 || Math.abs(x - y / 3 - 40) < 12 ? [0, 0, 0] : [255, 255, 255]));
  });

  // Outlines suit edge maps; depth needs surfaces, so it gets the filled shapes.
  const cases = [['svc:canny_sdxl', undefined, false], ['svc:canny_sdxl', true, true], ['svc:canny_sdxl', false, false],
    ['svc:depth_sdxl', undefined, true], ['svc:depth_sdxl', false, true], ['my-private-sketch-net', undefined, false]] as const;
  for (const [controlnet, preprocess, filled] of cases) {
    it(`${controlnet} (preprocess ${String(preprocess)}, ${filled ? 'filled shapes' : 'outlines'}) follows the control image's edges`, async () => {
      const body = { prompt: 'a cottage in a meadow', seed: 7, controlnet, ...(preprocess === undefined ? {} : { controlnet_preprocess: preprocess }) };
      const map = maps.get(filled)!;
      const follows = edgeAgreement(await first('controlnet-sdxl', { ...body, controlnet_image: map.b64 }), map.pixels);
      const other = edgeAgreement(await first('controlnet-sdxl', { ...body, controlnet_image: unrelated }), map.pixels);
      expect(follows).toBeGreaterThan(0.3);
      expect(follows).toBeGreaterThan(other + 0.2);
    });
  }

  it('openpose turns a figure into a posed body where the figure stands', async () => {
    const figure = await makeImage(600, 600, (x, y) => {
      const inFigure = (x - 200) ** 2 + (y - 110) ** 2 < 45 ** 2 || (x > 160 && x < 240 && y > 150 && y < 560) || (y > 170 && y < 200 && x > 60 && x < 340);
      return inFigure ? [60, 50, 160] : [235, 230, 220];
    });
    const body = { prompt: 'a dancer', seed: 7, controlnet: 'svc:openpose_sdxl' };
    const posed = await first('controlnet-sdxl', { ...body, controlnet_image: figure });
    const blank = await first('controlnet-sdxl', { ...body, controlnet_image: await makeImage(600, 600, () => [235, 230, 220]) });
    // The figure stands in the left half: that is where the two outputs differ.
    const left = meanAbsDiff(posed, blank, (x, y) => x > 250 && x < 430 && y > 300 && y < 900);
    const right = meanAbsDiff(posed, blank, (x) => x > 700);
    expect(left).toBeGreaterThan(8);
    expect(left).toBeGreaterThan(right * 3);
  });

  it('preprocessing is real: canny of a photo differs from using the photo as the map', async () => {
    const body = { prompt: 'a cottage', seed: 7, controlnet: 'svc:canny_sdxl', controlnet_image: photo };
    const pre = await first('controlnet-sdxl', body);
    const raw = await first('controlnet-sdxl', { ...body, controlnet_preprocess: false });
    expect(meanAbsDiff(pre, raw)).toBeGreaterThan(3);
  });
});

describe('subject transfer', () => {
  it('carries every sample image into the picture, where the subject stands', async () => {
    const faceA = await makeImage(300, 400, (x, y) => ((x - 150) ** 2 / 100 ** 2 + (y - 180) ** 2 / 140 ** 2 < 1 ? [230, 180, 150] : [30, 110, 60]));
    const faceB = await makeImage(300, 400, (x, y) => (x > 60 && x < 240 && y > 100 && y < 300 ? [250, 230, 40] : [40, 60, 150]));
    const prompt = 'a photo of sks on a beach at sunset';
    const plain = await first('sdxl', { prompt, seed: 9 });
    const both = await first('sdxl', { prompt, seed: 9, transfer_images: { sks: [faceA, faceB] } });
    const onlyA = await first('sdxl', { prompt, seed: 9, transfer_images: { sks: [faceA] } });
    // Compare inside the subject's frame, away from its feathered edge, with each sample stretched to that frame.
    const { box } = layoutSubjects(prompt, ['sks'], 1024, 1024)[0]!;
    const inner = (x: number, y: number) => x > box.x + box.width * 0.25 && x < box.x + box.width * 0.75 && y > box.y + box.height * 0.25 && y < box.y + box.height * 0.75;
    const placed = async (b64: string): Promise<Pixels> => {
      const framed = await sharp(Buffer.from(b64, 'base64')).resize(box.width, box.height, { fit: 'fill' }).raw().toBuffer();
      const data = new Uint8Array(1024 * 1024 * 3);
      for (let y = 0; y < box.height; y++) data.set(framed.subarray(y * box.width * 3, (y + 1) * box.width * 3), ((box.y + y) * 1024 + box.x) * 3);
      return { width: 1024, height: 1024, data };
    };
    const a = await placed(faceA);
    const b = await placed(faceB);
    // One sample: the frame shows it, far closer than the picture without it.
    expect(meanAbsDiff(onlyA, a, inner)).toBeLessThan(0.3 * meanAbsDiff(plain, a, inner));
    // Two samples: the frame is a blend of both, with a real share of each.
    const blend = (t: number): Pixels => ({ width: 1024, height: 1024, data: a.data.map((v, i) => Math.round(v * t + b.data[i]! * (1 - t))) });
    const fits = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1].map((t) => ({ t, d: meanAbsDiff(both, blend(t), inner) }));
    const best = fits.reduce((x, y) => (y.d < x.d ? y : x));
    expect(best.t).toBeGreaterThanOrEqual(0.2);
    expect(best.t).toBeLessThanOrEqual(0.8);
    expect(best.d).toBeLessThan(0.3 * meanAbsDiff(plain, blend(best.t), inner));
    // Outside the frame the picture is the prompt's own.
    expect(meanAbsDiff(both, plain, (x, y) => y < box.y - 20)).toBeLessThan(1);
  });

  it('places each subject by where its trigger word stands in the prompt', async () => {
    const sample = await makeImage(200, 200, () => [250, 20, 20]);
    const redness = (p: Pixels, fromX: number, toX: number) => {
      let s = 0;
      let n = 0;
      for (let y = 0; y < p.height; y++) for (let x = fromX; x < toX; x++) { const i = (y * p.width + x) * 3; s += p.data[i]! - p.data[i + 2]!; n++; }
      return s / n;
    };
    const early = await first('sdxl', { prompt: 'sks and a cat and a dog and an owl in a grey room', seed: 2, transfer_images: { sks: [sample] } });
    const late = await first('sdxl', { prompt: 'a cat and a dog and an owl in a grey room with sks', seed: 2, transfer_images: { sks: [sample] } });
    expect(redness(early, 0, 400) - redness(early, 624, 1024)).toBeGreaterThan(redness(late, 0, 400) - redness(late, 624, 1024) + 20);
  });
});

describe('undecodable input images', () => {
  // A JPEG signature (so the request validates) followed by bytes no decoder can read.
  const garbage = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('this is not image data')]).toString('base64');
  const cases: [string, string, Record<string, unknown>][] = [
    ['init_image', 'sd', { init_image: garbage }],
    ['mask_image', 'sd', { init_image: '', mask_image: garbage }],
    ['controlnet_image', 'controlnet-sdxl', { controlnet: 'svc:canny_sdxl', controlnet_image: garbage }],
    ['transfer_images.sks[1]', 'sdxl', { transfer_images: { sks: ['', garbage] } }],
  ];
  for (const [field, engine, extra] of cases) {
    it(`names ${field}`, async () => {
      const body = JSON.parse(JSON.stringify(extra).replaceAll('""', JSON.stringify(photo))) as Record<string, unknown>;
      const req = resolved(engine, { prompt: 'sks', seed: 1, ...body });
      const err = await generateImages(req).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImageInputError);
      expect((err as ImageInputError).field).toBe(field);
      expect((err as ImageInputError).message).toMatch(/does not decode/);
    });
  }
});
