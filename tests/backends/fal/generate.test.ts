/** The fal backend against the fal double: the queue followed, images kept or refused, errors said, cancel honoured. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFalBackend, type FalBackendOptions } from '../../../api/backends/fal/index';
import { falCodec } from '../../../api/backends/fal/uploads';
import { ApiError } from '../../../api/errors';
import { startFalDouble, type FalDouble } from '../../helpers/doubles/fal';
import { makeImage } from '../../engines/image-test-utils';

let double: FalDouble;
let small: string;
let large: string;
beforeAll(async () => {
  double = await startFalDouble({ queuePolls: 2, progressPolls: 3, flagPrompts: /forbidden/ });
  small = await makeImage(32, 32, (x, y) => [x * 8, y * 8, 90]);
  // Noise compresses badly: about 3 MB as PNG, over the 1 MB that goes through fal's storage.
  large = await makeImage(1024, 1024, (x, y) => [(x * 7919 + y * 104729) % 251, (x * y) % 253, (x ^ y) % 255]);
});
afterAll(async () => { await double.close(); });

const fast = { retry: { sleep: () => Promise.resolve(), random: () => 0 }, pollIntervalMs: 1 };
const backend = (extra: Partial<FalBackendOptions> = {}) => createFalBackend({ baseUrl: double.url, token: double.apiKey, ...fast, ...extra });

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('fal backend on the double', () => {
  it('follows the queue and the steps through onProgress, and answers base64 images with the seed', async () => {
    const progress: string[] = [];
    const result = await backend().generate('sdxl', { prompt: 'a lighthouse', seed: 11, width: 64, height: 64 }, { onProgress: (_f, m) => progress.push(m ?? '') });
    expect(result.images).toHaveLength(1);
    expect(result.images[0]!.seed).toBe(11);
    expect(Buffer.from(result.images[0]!.image_b64, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(progress).toEqual(['sending to fal', "waiting in fal's queue (1 ahead)", "waiting in fal's queue (0 ahead)", 'step 1 of 3', 'step 2 of 3', 'step 3 of 3', 'done']);
    const submit = double.received.find((r) => r.method === 'POST' && r.path === '/fal-ai/fast-sdxl')!;
    expect(submit.authorization).toBe(`Key ${double.apiKey}`);
    expect(submit.unknownFields).toEqual([]);
  });

  it('reports the cost fal billed where it says the units (x-fal-billable-units) and the table has the price; otherwise none', async () => {
    // 1152×896 is 1.03 megapixels, billed as 2 each: 3 images in one request, 6 units at $0.025.
    const flux = await backend({ names: { model: 'fal-ai/flux/dev' } }).generate('sdxl', { prompt: 'p', num_images: 3, width: 1152, height: 896 });
    expect(flux.cost).toEqual({ amountUsd: 0.15, reported: true, basis: '6 billable megapixels reported by fal (x-fal-billable-units) at $0.025 per megapixel (https://fal.ai/pricing, 2026-05-25)' });
    // fal-ai/fast-sdxl bills by GPU time: no units in its answer, no price in the table.
    expect(await backend().generate('sdxl', { prompt: 'p' })).not.toHaveProperty('cost');
  });

  it('sends a small input image as a data URI, undecoded; a large one through fal storage, decoded once', async () => {
    let decodes = 0;
    const bytes = falCodec.bytes;
    falCodec.bytes = (b64) => { decodes++; return bytes(b64); };
    try {
      await backend().generate('sdxl', { prompt: 'p', init_image: small, strength: 0.5 });
      const submitted = double.jobs.at(-1)!;
      expect(submitted.endpoint).toBe('fal-ai/fast-sdxl/image-to-image');
      expect(submitted.input.image_url).toBe(`data:image/png;base64,${small}`);
      expect(decodes).toBe(0);
      await backend().generate('sdxl', { prompt: 'p', init_image: large, mask_image: small });
      const inpaint = double.jobs.at(-1)!;
      expect(inpaint.input.image_url).toMatch(new RegExp(`^${double.url}/files/`));
      expect(inpaint.input.mask_url).toMatch(/^data:image\/png;base64,/);
      expect(decodes).toBe(1);
      const put = double.received.find((r) => r.method === 'PUT' && r.path.startsWith('/upload/'))!;
      expect(put.authorization).toBeUndefined();
    } finally {
      falCodec.bytes = bytes;
    }
  });

  it('fetches CDN images (fal-ai/lora has no sync_mode) without the key', async () => {
    const result = await backend({ names: { model: 'fal-ai/lora' } }).generate('sd', { prompt: 'p', num_images: 2 });
    expect(result.images).toHaveLength(2);
    const downloads = double.received.filter((r) => r.method === 'GET' && r.path.startsWith('/files/'));
    expect(downloads).toHaveLength(2);
    expect(downloads.every((d) => d.authorization === undefined)).toBe(true);
    expect(result.images[0]!.seed).toBeUndefined();
  });

  it('never keeps an image the safety checker flagged', async () => {
    const error = await caught(backend().generate('sdxl', { prompt: 'something forbidden', num_images: 2 }));
    expect(error.detail).toBe("fal's safety checker flagged all 2 images (has_nsfw_concepts), so none is kept; sending it again will not help, change the prompt or the input image");
    expect(error.retryable).toBe(false);
  });

  it('refuses before sending: no key, or a mode the model cannot do', async () => {
    const before = double.received.length;
    const noKey = await caught(createFalBackend({ baseUrl: double.url, ...fast }).generate('sdxl', { prompt: 'p' }));
    expect(noKey.detail).toMatch(/^not sent: fal needs an API key/);
    const mode = await caught(backend({ names: { model: 'fal-ai/flux/schnell' } }).generate('sdxl', { prompt: 'p', init_image: small }));
    expect(mode.detail).toMatch(/^not sent: fal cannot do this request: init_image FLUX.1 \[schnell\] on fal cannot do image to image/);
    expect(double.received.length).toBe(before);
  });

  it('says a refused key, no credit, an unknown model and a refused field, none retried', async () => {
    const wrong = await caught(createFalBackend({ baseUrl: double.url, token: 'id:wrong-secret-value', ...fast }).generate('sdxl', { prompt: 'p' }));
    expect(wrong.detail).toMatch(/^fal refused the API key \(HTTP 401\)/);
    expect(wrong.message).not.toContain('wrong-secret-value');
    double.failNext({ status: 403, body: { detail: 'User is locked. Reason: Exhausted balance. Top up your balance at fal.ai/dashboard/billing.' } });
    const credit = await caught(backend().generate('sdxl', { prompt: 'p' }));
    expect(credit.detail).toMatch(/^fal says the account is out of credit \(HTTP 403\): top up/);
    expect(credit.attempts).toBe(1);
    double.failNext({ status: 402, body: { detail: 'Insufficient balance' } });
    const payment = await caught(backend().generate('sdxl', { prompt: 'p' }));
    expect(payment.detail).toBe('fal says the account is out of credit (HTTP 402): top up at fal.ai/dashboard/billing; sending again will not help until then. fal said: Insufficient balance');
    expect(payment.attempts).toBe(1);
    const unknown = await caught(backend({ names: { model: 'fal-ai/no-such-model' } }).generate('sdxl', { prompt: 'p' }));
    expect(unknown.detail).toMatch(/^fal has no model 'fal-ai\/no-such-model' \(HTTP 404\)/);
    const field = await caught(backend({ names: { model: 'fal-ai/fast-sdxl' } }).generate('sdxl', { prompt: 'p', steps: 100 }));
    expect(field.detail).toBe("fal refused steps (sent as 'num_inference_steps'): ensure this value is less than or equal to 65 (HTTP 422)");
  });

  it('waits out a rate limit as Retry-After asks, then goes on', async () => {
    const waits: number[] = [];
    double.failNext({ status: 429, body: { detail: 'Too many concurrent requests' }, headers: { 'Retry-After': '2' } });
    const result = await createFalBackend({ baseUrl: double.url, token: double.apiKey, pollIntervalMs: 1, retry: { random: () => 0, sleep: (ms) => { waits.push(ms); return Promise.resolve(); } } })
      .generate('sdxl', { prompt: 'p' });
    expect(result.images).toHaveLength(1);
    expect(waits).toEqual([2000]);
  });

  it('a rate limit that outlasts the retries says how long fal asked to wait', async () => {
    const limited = { status: 429, body: { detail: 'Too many concurrent requests' }, headers: { 'Retry-After': '2' } };
    double.failNext(limited, limited, limited);
    const error = await caught(backend().generate('sdxl', { prompt: 'p' }));
    expect(error.detail).toBe('fal is limiting how many requests may run at once (HTTP 429). fal said: Too many concurrent requests; it asked to wait 2 s (Retry-After)');
    expect(error.attempts).toBe(3);
  });

  it('cancels at fal when the call is aborted while queued', async () => {
    const controller = new AbortController();
    const run = backend().generate('sdxl', { prompt: 'p' }, { signal: controller.signal, onProgress: (_f, m) => { if (m?.includes('queue') === true) controller.abort(); } });
    const error = await caught(run);
    expect(error.kind).toBe('aborted');
    const job = double.jobs.at(-1)!;
    expect(job.state).toBe('CANCELLED');
    expect(double.received.some((r) => r.method === 'PUT' && r.path === `/fal-ai/fast-sdxl/requests/${job.id}/cancel`)).toBe(true);
  });

  it('lists fal models (its Platform API) with the table\'s own', async () => {
    const names = await backend().listNames?.();
    expect(names?.models).toContain('fal-ai/flux/dev');
    expect(names?.models).toContain('fal-ai/stable-diffusion-v35-medium');
  });
});
