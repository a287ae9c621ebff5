/**
 * The service's inpainting mask is an image whose white marks where to paint; OpenAI's is a PNG
 * the size of the image whose fully transparent pixels (alpha 0) mark where to edit (openapi.yaml,
 * CreateImageEditRequest.mask). The mask is decoded once, scaled to the image's own size (the
 * service resizes both to the output size, so only their shared frame matters), and written again
 * with that alpha.
 */
import { imageCodec } from './codec';
import type { Dimensions } from './image-info';

/** A pixel at least this white (luminance times alpha) is painted, as the local engines read masks. */
const PAINT_FROM = 128;

/** OpenAI's mask for an image of `size`: transparent where `mask` (PNG or JPEG bytes) is white. */
export async function toOpenAIMask(mask: Uint8Array, format: 'png' | 'jpeg', size: Dimensions): Promise<Uint8Array<ArrayBuffer>> {
  const coverage = await imageCodec.coverage(mask, format);
  const { width, height } = size;
  const rgba = new Uint8Array(width * height * 4);
  // Nearest neighbour keeps the mask's edge hard: a soft edge would become half-transparent pixels,
  // which OpenAI reads as "keep".
  const xs = new Uint32Array(width);
  for (let x = 0; x < width; x++) xs[x] = Math.min(coverage.width - 1, Math.floor(((x + 0.5) * coverage.width) / width));
  for (let y = 0; y < height; y++) {
    const row = Math.min(coverage.height - 1, Math.floor(((y + 0.5) * coverage.height) / height)) * coverage.width;
    for (let x = 0; x < width; x++) {
      const paint = (coverage.values[row + xs[x]!] ?? 0) >= PAINT_FROM;
      rgba[(y * width + x) * 4 + 3] = paint ? 0 : 255;
    }
  }
  return imageCodec.encodeRgbaPng(width, height, rgba);
}
