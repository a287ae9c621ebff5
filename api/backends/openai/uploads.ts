/**
 * The files of an edits request, made once per `generate` and reused by every request it sends:
 * each input image decoded from base64 once and sent as it is (never re-encoded: PNG, JPEG and
 * WebP are what OpenAI takes), and the mask converted once (mask.ts).
 */
import type { OpenAIPlan } from './plan';
import { imageCodec } from './codec';
import { FORMAT_MIME, imageDimensions } from './image-info';
import { toOpenAIMask } from './mask';

export interface Uploads {
  images: { blob: Blob; name: string }[];
  mask?: Blob;
}

/** A local failure to read an image, naming the request field it came from. */
export class UploadError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
    this.name = 'UploadError';
  }
}

function decode(b64: string, field: string): Uint8Array<ArrayBuffer> {
  try {
    return imageCodec.bytes(b64);
  } catch (error) {
    throw new UploadError(field, `is not valid base64 (${(error as Error).message})`);
  }
}

export async function prepareUploads(plan: OpenAIPlan): Promise<Uploads> {
  const decoded = plan.images.map((image) => ({ image, bytes: decode(image.b64, image.source) }));
  const images = decoded.map(({ image, bytes }, i) => ({
    blob: new Blob([bytes], { type: FORMAT_MIME[image.format] }),
    name: `${decoded.length > 1 ? `image-${i + 1}` : 'image'}.${image.format === 'jpeg' ? 'jpg' : image.format}`,
  }));
  if (plan.mask === undefined) return { images };
  const first = decoded[0];
  const size = first === undefined ? undefined : imageDimensions(first.bytes, first.image.format);
  if (size === undefined) throw new UploadError('init_image', 'has a header this backend cannot read its width and height from, which the mask must match');
  const maskBytes = decode(plan.mask.b64, 'mask_image');
  let mask: Uint8Array<ArrayBuffer>;
  try {
    mask = await toOpenAIMask(maskBytes, plan.mask.format, size);
  } catch (error) {
    throw new UploadError('mask_image', `could not be read as a ${plan.mask.format === 'png' ? 'PNG' : 'JPEG'} image (${(error as Error).message})`);
  }
  return { images, mask: new Blob([mask], { type: 'image/png' }) };
}

/** The multipart form of one edits request asking for `n` images. */
export function toForm(plan: OpenAIPlan, uploads: Uploads, n: number): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(plan.fields)) form.append(name, value);
  form.append('n', String(n));
  // One image goes as `image`; several as `image[]`, as the openai SDK sends an array.
  const field = uploads.images.length > 1 ? 'image[]' : 'image';
  for (const { blob, name } of uploads.images) form.append(field, blob, name);
  // The mask after the prompt: OpenAI's edits endpoint once read the form in order and wanted it so.
  if (uploads.mask !== undefined) form.append('mask', uploads.mask, 'mask.png');
  return form;
}
