/** Shared helpers of the Google Gemini backend's tests. */
import sharp from 'sharp';
import { createGoogleBackend } from '../../../api/backends/google';
import type { BackendOptions } from '../../../api/backends/options';
import type { GeminiDouble } from '../../helpers/doubles/gemini';

export { caught } from '../../helpers/caught';

/** A backend on the double, with its key, no retries unless asked, and waits that take no time. */
export function backendOn(double: GeminiDouble, overrides: Partial<BackendOptions> = {}) {
  return createGoogleBackend({
    baseUrl: double.url, token: double.apiKey, timeouts: { headersMs: 10_000, idleMs: 10_000 },
    ...overrides,
    retry: { maxAttempts: 1, sleep: () => Promise.resolve(), ...overrides.retry },
  });
}

export async function imageInfo(b64: string) {
  const meta = await sharp(Buffer.from(b64, 'base64')).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
}
