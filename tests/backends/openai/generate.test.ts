import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { imageCodec } from '../../../api/backends/openai/codec';
import { startOpenAIImagesDouble, type OpenAIImagesDouble } from '../../helpers/doubles/openai-images';
import { makeImage } from '../../engines/image-test-utils';
import { alphaOf, backendOn, caught, imageInfo } from './helpers';

let double: OpenAIImagesDouble;
beforeEach(async () => { double = await startOpenAIImagesDouble(); });
afterEach(async () => {
  vi.restoreAllMocks();
  await double.close();
});

let photo: string;
let photoJpeg: string;
let leftHalfMask: string;
let leftHalfMaskJpeg: string;
beforeAll(async () => {
  photo = await makeImage(64, 48, (x) => [x * 4, 80, 120]);
  photoJpeg = await makeImage(64, 64, (x, y) => [x * 4, y * 4, 90], 'jpeg');
  // Half the size of the photo: the mask is scaled to the image's own size.
  leftHalfMask = await makeImage(32, 24, (x) => (x < 16 ? [255, 255, 255] : [0, 0, 0]));
  leftHalfMaskJpeg = await makeImage(64, 48, (x) => (x < 32 ? [255, 255, 255] : [0, 0, 0]), 'jpeg');
});

describe('OpenAI Images backend: text to image', () => {
  it('posts JSON to /v1/images/generations with the bearer token, and returns the images it made, with progress', async () => {
    const progress: [number, string | undefined][] = [];
    const response = await backendOn(double).generate('sdxl', { prompt: 'a lighthouse', width: 896, height: 1152, num_images: 2 }, {
      onProgress: (fraction, message) => progress.push([fraction, message]),
    });
    expect(double.received).toHaveLength(1);
    expect(double.received[0]).toMatchObject({ method: 'POST', path: '/v1/images/generations', authorization: `Bearer ${double.apiKey}`, contentType: 'application/json' });
    expect(double.received[0]?.json).toEqual({ model: 'gpt-image-1', prompt: 'a lighthouse', size: '1024x1536', output_format: 'png', n: 2 });
    expect(response.images).toHaveLength(2);
    for (const image of response.images) expect(await imageInfo(image.image_b64)).toEqual({ format: 'png', width: 1024, height: 1536 });
    expect(response.images[0]?.image_b64).not.toBe(response.images[1]?.image_b64);
    expect(progress).toEqual([[0, 'waiting for OpenAI Images'], [1, 'done']]);
  });

  it('makes one request per image on dall-e-3, asking for b64_json, and keeps the revised prompt', async () => {
    const progress: number[] = [];
    const response = await backendOn(double, { names: { model: 'dall-e-3' } }).generate('sdxl', { prompt: 'a fox', num_images: 3 }, { onProgress: (f) => progress.push(f) });
    expect(double.received.map((r) => r.json)).toEqual(Array(3).fill({ model: 'dall-e-3', prompt: 'a fox', size: '1024x1024', response_format: 'b64_json', n: 1 }));
    expect(response.images).toHaveLength(3);
    expect(response.images[0]).toMatchObject({ revised_prompt: 'A detailed picture of a fox' });
    expect(progress).toEqual([0, 1 / 3, 2 / 3, 1]);
  });

  it('takes the base URL with or without /v1 and a trailing slash', async () => {
    await backendOn(double, { baseUrl: `${double.url}/v1/` }).generate('sd', { prompt: 'p' });
    await backendOn(double, { baseUrl: `${double.url}/` }).generate('sd', { prompt: 'p' });
    expect(double.received.map((r) => r.path)).toEqual(['/v1/images/generations', '/v1/images/generations']);
  });

  it('lists the image models as name suggestions', async () => {
    expect(await backendOn(double).listNames!()).toEqual({ models: ['dall-e-2', 'dall-e-3', 'gpt-image-1', 'gpt-image-1-mini', 'gpt-image-1.5'] });
  });
});

describe('OpenAI Images backend: edits', () => {
  it('sends image to image as multipart with the image bytes exactly as given, decoded once', async () => {
    const decode = vi.spyOn(imageCodec, 'bytes');
    const response = await backendOn(double).generate('sdxl', { prompt: 'as a watercolour', init_image: photoJpeg, num_images: 12 });
    expect(response.images).toHaveLength(12);
    expect(double.received.map((r) => r.fields?.n)).toEqual(['10', '2']);
    const [first] = double.received;
    expect(first).toMatchObject({ path: '/v1/images/edits', fields: { model: 'gpt-image-1', prompt: 'as a watercolour', size: '1024x1024', output_format: 'png', n: '10' } });
    expect(first?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(first?.files).toHaveLength(1);
    expect(first?.files?.[0]).toMatchObject({ field: 'image', filename: 'image.jpg', type: 'image/jpeg', format: 'jpeg' });
    expect(first?.files?.[0]?.bytes.equals(Buffer.from(photoJpeg, 'base64'))).toBe(true);
    expect(decode).toHaveBeenCalledTimes(1);
  });

  it('turns the white of the mask into transparent pixels of a PNG the image\'s size, decoding each input once', async () => {
    const decode = vi.spyOn(imageCodec, 'bytes');
    const pixels = vi.spyOn(imageCodec, 'coverage');
    await backendOn(double).generate('sd', { prompt: 'a boat', init_image: photo, mask_image: leftHalfMask });
    expect(decode).toHaveBeenCalledTimes(2);
    expect(pixels).toHaveBeenCalledTimes(1);
    const files = double.received[0]?.files ?? [];
    expect(files.map((f) => [f.field, f.filename, f.type])).toEqual([['image', 'image.png', 'image/png'], ['mask', 'mask.png', 'image/png']]);
    expect(files[0]?.bytes.equals(Buffer.from(photo, 'base64'))).toBe(true);
    const mask = await alphaOf(files[1]!.bytes);
    expect([mask.width, mask.height]).toEqual([64, 48]);
    for (const [x, y] of [[0, 0], [31, 47], [10, 20]]) expect(mask.alpha[y! * 64 + x!], `${x},${y}`).toBe(0);
    for (const [x, y] of [[32, 0], [63, 47], [50, 20]]) expect(mask.alpha[y! * 64 + x!], `${x},${y}`).toBe(255);
  });

  it('reads a JPEG mask too, and sends dall-e-2 inpainting of a square PNG', async () => {
    const square = await makeImage(64, 64, () => [10, 20, 30]);
    const response = await backendOn(double, { names: { model: 'dall-e-2' } }).generate('sd', { prompt: 'a boat', init_image: square, mask_image: leftHalfMaskJpeg });
    expect(response.images).toHaveLength(1);
    expect(double.received[0]?.fields).toEqual({ model: 'dall-e-2', prompt: 'a boat', size: '512x512', response_format: 'b64_json', n: '1' });
    const mask = await alphaOf(double.received[0]!.files![1]!.bytes);
    expect([mask.alpha[0], mask.alpha[63]]).toEqual([0, 255]);
  });

  it('sends subject transfer\'s samples as image[] with the sentence naming them', async () => {
    await backendOn(double).generate('sdxl', { prompt: 'sks on a beach', transfer_images: { sks: [photo, photoJpeg] } });
    const [sent] = double.received;
    expect(sent?.files?.map((f) => [f.field, f.filename])).toEqual([['image[]', 'image-1.png'], ['image[]', 'image-2.jpg']]);
    // multipart/form-data writes a text value's line breaks as CRLF (the HTML form encoding).
    expect(sent?.fields?.prompt).toBe('sks on a beach\r\nImages 1–2 show “sks”.');
  });

  it('cancels a request in flight: the connection is closed and the error says aborted', async () => {
    const held = double.hold();
    const controller = new AbortController();
    const pending = caught(backendOn(double).generate('sdxl', { prompt: 'slow' }, { signal: controller.signal }));
    await held.arrived;
    controller.abort();
    const error = await pending;
    expect(error).toMatchObject({ kind: 'aborted', retryable: false });
    await held.hungUp;
    held.release();
    expect(double.made()).toBe(0);
  });

  it('sends nothing for a refused request and says why, naming the field', async () => {
    const error = await caught(backendOn(double).generate('controlnet-sdxl', { prompt: 'p', controlnet: 'svc:canny_sdxl', controlnet_image: photo }));
    expect(error).toMatchObject({ retryable: false, attempts: 0 });
    expect(error.detail).toMatch(/^not sent: OpenAI Images cannot do this request: controlnet OpenAI Images has no ControlNet/);
    expect(double.received).toHaveLength(0);
  });

  it('says which field is not base64 when an image cannot be decoded, sending nothing', async () => {
    const error = await caught(backendOn(double).generate('sdxl', { prompt: 'p', init_image: `${photo.slice(0, 40)}$$$$` }));
    expect(error.detail).toMatch(/init_image is not valid base64 \(not valid base64: unexpected character at position 40\)$/);
    expect(double.received).toHaveLength(0);
  });

  it('says which field could not be read when a mask is broken, sending nothing', async () => {
    const broken = `${leftHalfMask.slice(0, 60)}${'A'.repeat(400)}`;
    const error = await caught(backendOn(double).generate('sd', { prompt: 'p', init_image: photo, mask_image: broken }));
    expect(error.detail).toContain('mask_image could not be read as a PNG image');
    expect(double.received).toHaveLength(0);
  });
});
