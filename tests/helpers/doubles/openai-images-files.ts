/**
 * The files of the OpenAI Images double: uploads read for real with sharp (format, size, alpha)
 * and checked as the edits endpoint checks them (openapi.yaml CreateImageEditRequest.image and
 * .mask; openai-node src/resources/images.ts: GPT image models take up to 16 PNG, WebP or JPEG
 * images, dall-e-2 one square PNG under 4 MB, and a mask is a PNG with alpha the image's size),
 * and the images it answers with: solid colours made with sharp.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { apiError, type ApiErrorBody, type DoubleModel } from './openai-images-rules';

export interface ReceivedFile {
  field: string;
  filename: string;
  type: string;
  bytes: Buffer;
  /** What sharp reads in the bytes; undefined when they are not an image. */
  format?: string;
  width?: number;
  height?: number;
  hasAlpha?: boolean;
}

export async function readFile(field: string, file: File): Promise<ReceivedFile> {
  const bytes = Buffer.from(await file.arrayBuffer());
  const base: ReceivedFile = { field, filename: file.name, type: file.type, bytes };
  try {
    const meta = await sharp(bytes).metadata();
    return { ...base, format: meta.format, width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha };
  } catch {
    return base;
  }
}

const MB = 1024 * 1024;

/** The edits endpoint's checks of its files, in the real API's words. */
export function checkEditFiles(files: readonly ReceivedFile[], model: DoubleModel): ApiErrorBody | undefined {
  const images = files.filter((f) => f.field === 'image' || f.field === 'image[]');
  const mask = files.find((f) => f.field === 'mask');
  if (images.length === 0) return apiError(400, "Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  const max = model.kind === 'gpt-image' ? 16 : 1;
  if (images.length > max) {
    return apiError(400, `Invalid 'image': array too long. Expected an array with maximum length ${max}, but got an array with length ${images.length} instead.`, 'image', 'array_above_max_length');
  }
  const formats = model.kind === 'dall-e-2' ? ['png'] : ['png', 'jpeg', 'webp'];
  for (const [i, image] of images.entries()) {
    if (image.format === undefined || !formats.includes(image.format)) {
      return model.kind === 'dall-e-2'
        ? apiError(400, 'Uploaded image must be a PNG and less than 4 MB.', 'image')
        : apiError(400, `Invalid image file or mode for image ${i + 1}, please check your image file.`, 'image', 'invalid_image_file');
    }
  }
  const first = images[0]!;
  if (model.kind === 'dall-e-2') {
    if (first.bytes.length >= 4 * MB) return apiError(400, 'Uploaded image must be a PNG and less than 4 MB.', 'image');
    if (first.width !== first.height) {
      return apiError(400, `Invalid input image - expected an image with equal width and height, got ${first.width}x${first.height} instead.`, 'image');
    }
    if (mask === undefined && first.hasAlpha !== true) return apiError(400, "Invalid input image - format must be in ['RGBA', 'LA', 'L'], got RGB.", 'image');
  }
  if (mask !== undefined) {
    if (mask.format !== 'png') return apiError(400, 'Invalid mask image format - mask image must be a PNG');
    if (mask.hasAlpha !== true) return apiError(400, 'Invalid mask image format - mask image missing alpha channel');
    if (mask.width !== first.width || mask.height !== first.height) return apiError(400, 'Invalid mask image format - mask size does not match image size');
  }
  return undefined;
}

/** `n` solid images of `size`, each a colour of its own (from the prompt and a running count). */
export async function renderImages(prompt: string, n: number, size: { width: number; height: number }, format: 'png' | 'jpeg' | 'webp', counter: { made: number }): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const digest = createHash('sha256').update(`${prompt}\n${counter.made++}`).digest();
    const image = sharp({ create: { width: size.width, height: size.height, channels: 3, background: { r: digest[0]!, g: digest[1]!, b: digest[2]! } } });
    const bytes = await (format === 'jpeg' ? image.jpeg() : format === 'webp' ? image.webp() : image.png()).toBuffer();
    out.push(bytes.toString('base64'));
  }
  return out;
}
