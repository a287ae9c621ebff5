/** Shared helpers of the OpenAI Images backend's tests. */
import sharp from 'sharp';
import { createOpenAIImagesBackend } from '../../../api/backends/openai';
import type { BackendOptions } from '../../../api/backends/options';
import type { OpenAIImagesDouble } from '../../helpers/doubles/openai-images';

export { caught } from '../../helpers/caught';

/** A backend on the double, with its key, no retries unless asked, and waits that take no time. */
export function backendOn(double: OpenAIImagesDouble, overrides: Partial<BackendOptions> = {}) {
  return createOpenAIImagesBackend({
    baseUrl: double.url, token: double.apiKey, timeouts: { headersMs: 10_000, idleMs: 10_000 },
    ...overrides,
    retry: { maxAttempts: 1, sleep: () => Promise.resolve(), ...overrides.retry },
  });
}


export async function imageInfo(b64: string) {
  const meta = await sharp(Buffer.from(b64, 'base64')).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
}

/** The alpha channel of a PNG, row by row. */
export async function alphaOf(bytes: Buffer): Promise<{ width: number; height: number; alpha: Buffer }> {
  const { data, info } = await sharp(bytes).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, alpha: data };
}
