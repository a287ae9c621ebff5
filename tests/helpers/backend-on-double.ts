/** What the tests of backends on a keyed double share: the options they are made with, and an image's format and size. */
import sharp from 'sharp';
import type { BackendOptions } from '../../api/backends/options';

/** Options for a backend on `double`, with its key, no retries unless asked, and waits that take no time. */
export function optionsOn(double: { url: string; apiKey: string }, overrides: Partial<BackendOptions> = {}): BackendOptions {
  return {
    baseUrl: double.url, token: double.apiKey, timeouts: { headersMs: 10_000, idleMs: 10_000 },
    ...overrides,
    retry: { maxAttempts: 1, sleep: () => Promise.resolve(), ...overrides.retry },
  };
}

/** The format and size of a base64 image, as sharp reads it. */
export async function imageInfo(b64: string) {
  const meta = await sharp(Buffer.from(b64, 'base64')).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
}
