/**
 * Image files in and out, through sharp (libvips): base64 input images decoded and resized to
 * the requested size as the service does ("resized to the requested width and height"), and
 * raw pixels encoded to JPEG, the service's output format.
 */
import sharp from 'sharp';

/** An input image that cannot be used; `field` names where it came from, e.g. 'init_image'. */
export class ImageInputError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
    this.name = 'ImageInputError';
  }
}

export interface RawImage {
  width: number;
  height: number;
  channels: 1 | 3;
  data: Buffer;
}

/** JPEG quality of the output: high enough that kept pixels stay within a few levels. */
const JPEG_QUALITY = 92;

function decodeFailure(field: string, err: unknown): ImageInputError {
  const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
  return new ImageInputError(field, `does not decode as an image (JPEG, PNG, WebP, GIF, TIFF or AVIF): ${reason}`);
}

function bytesOf(field: string, b64: string): Buffer {
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.length === 0) throw new ImageInputError(field, 'is empty after base64 decoding');
  return bytes;
}

/**
 * Decodes a base64 image into width x height pixels, stretched to fit (no crop, no padding).
 * Colour images come back as RGB (transparency flattened onto white), masks as one grey channel
 * (transparency flattened onto black, so a transparent area is left unpainted).
 */
export async function decodeImage(field: string, b64: string, width: number, height: number, kind: 'rgb' | 'grey'): Promise<RawImage> {
  const bytes = bytesOf(field, b64);
  try {
    let pipeline = sharp(bytes, { failOn: 'error' })
      .autoOrient()
      .flatten({ background: kind === 'rgb' ? '#ffffff' : '#000000' })
      .resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
    pipeline = kind === 'rgb' ? pipeline.toColourspace('srgb') : pipeline.greyscale();
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    const want = kind === 'rgb' ? 3 : 1;
    if (info.channels === want) return { width, height, channels: want, data };
    return { width, height, channels: want, data: toChannels(data, info.channels, want) };
  } catch (err) {
    throw decodeFailure(field, err);
  }
}

/** Reorders raw bytes to 1 or 3 channels (libvips may keep a channel we did not ask for). */
function toChannels(data: Buffer, from: number, to: 1 | 3): Buffer {
  const n = data.length / from;
  const out = Buffer.allocUnsafe(n * to);
  for (let p = 0; p < n; p++) {
    for (let c = 0; c < to; c++) out[p * to + c] = data[p * from + Math.min(c, from - 1)]!;
  }
  return out;
}

/** Encodes RGB bytes as a JPEG, returned base64 encoded. */
export async function encodeJpeg(pixels: Buffer, width: number, height: number): Promise<string> {
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: JPEG_QUALITY, mozjpeg: false, chromaSubsampling: '4:2:0' })
    .toBuffer();
  return jpeg.toString('base64');
}

/** Greyscale plane (0..255 bytes) blurred by libvips, for the preprocessors' smoothing. */
export async function blurGrey(plane: Uint8Array, width: number, height: number, sigma: number): Promise<Buffer> {
  // libvips hands a one-band raw image back as sRGB unless told to keep the single band.
  return sharp(plane, { raw: { width, height, channels: 1 } }).blur(sigma).extractChannel(0).raw().toBuffer();
}
