/** Small real images and backends pointed at the AUTOMATIC1111 double, for the backend's tests. */
import sharp from 'sharp';
import { createA1111Backend, type A1111Options } from '../../../api/backends/a1111/index';
import type { A1111Double } from '../../helpers/doubles/a1111';

/** A real JPEG (or PNG) as bare base64, of one colour. */
export async function imageB64(format: 'jpeg' | 'png' = 'jpeg', colour = '#808080', size = 64): Promise<string> {
  const image = sharp({ create: { width: size, height: size, channels: 3, background: colour } });
  return (await (format === 'jpeg' ? image.jpeg() : image.png()).toBuffer()).toString('base64');
}

/** A backend at the double, with no retry waits (tests must not sleep). */
export function backendFor(double: A1111Double, extra: Partial<A1111Options> = {}) {
  return createA1111Backend({
    baseUrl: double.url,
    retry: { maxAttempts: 1, sleep: () => Promise.resolve() },
    names: { checkpoint: 'sd_xl_base_1.0.safetensors', refiner: 'sd_xl_refiner_1.0.safetensors' },
    ...extra,
  });
}

/** The body of the n-th generation request the double saw (as the model read it). */
export function sent(double: A1111Double, index = 0): Record<string, unknown> {
  const generation = double.generations[index];
  if (generation === undefined) throw new Error(`the double saw ${double.generations.length} generations`);
  return generation.fields;
}

/** Decodes a PNG's one colour, to tell images apart. */
export async function colourOf(b64: string): Promise<string> {
  const { data } = await sharp(Buffer.from(b64, 'base64')).raw().toBuffer({ resolveWithObject: true });
  return `${data[0]},${data[1]},${data[2]}`;
}
