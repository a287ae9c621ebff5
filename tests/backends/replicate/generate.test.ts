/** The Replicate backend against the Replicate double: predictions followed, files as Replicate wants them, errors said, cancel honoured. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReplicateBackend, type ReplicateBackendOptions } from '../../../api/backends/replicate/index';
import { replicateCodec } from '../../../api/backends/replicate/files';
import { ApiError } from '../../../api/errors';
import { startReplicateDouble, type ReplicateDouble } from '../../helpers/doubles/replicate';
import { makeImage } from '../../engines/image-test-utils';

let double: ReplicateDouble;
let small: string;
let large: string;
beforeAll(async () => {
  double = await startReplicateDouble({ coldPolls: 2, steps: 2, flagPrompts: /forbidden/ });
  small = await makeImage(32, 32, (x, y) => [x * 8, y * 8, 90]);
  // Noise: about 800 KB as PNG, over the 256 KB Replicate takes inline.
  large = await makeImage(512, 512, (x, y) => [(x * 7919 + y * 104729) % 251, (x * y) % 253, (x ^ y) % 255]);
});
afterAll(async () => { await double.close(); });

const fast = { retry: { sleep: () => Promise.resolve(), random: () => 0 }, pollIntervalMs: 1 };
const backend = (extra: Partial<ReplicateBackendOptions> = {}) => createReplicateBackend({ baseUrl: double.url, token: double.token, ...fast, ...extra });

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('Replicate backend on the double', () => {
  it('says a cold start, follows the steps, and answers the images with the GPU seconds Replicate reports', async () => {
    const progress: string[] = [];
    const result = await backend().generate('sdxl', { prompt: 'a lighthouse', num_images: 2, seed: 5 }, { onProgress: (_f, m) => progress.push(m ?? '') });
    expect(result.images).toHaveLength(2);
    expect(result.billed_seconds).toBe(2.5);
    expect(progress[1]).toMatch(/^starting on Replicate \(a model that has not run lately is loaded first/);
    expect(progress.slice(-3)).toEqual(['step 1 of 2', 'step 2 of 2', 'done']);
    const created = double.received.find((r) => r.method === 'POST' && r.path === '/v1/predictions')!;
    expect(created.unknownFields).toEqual([]);
    expect(created.prefer).toBeUndefined();
    expect(double.received.filter((r) => r.path.startsWith('/delivery/')).every((r) => r.authorization === undefined)).toBe(true);
  });

  it('asks a fast official model to answer at once (Prefer: wait), by name; its cost is the images returned at the published price, not seconds', async () => {
    const result = await backend({ names: { model: 'black-forest-labs/flux-schnell' } }).generate('sdxl', { prompt: 'p', num_images: 2 });
    expect(result.cost).toEqual({ amountUsd: 0.006, reported: true, basis: '2 images returned by Replicate at $0.003 per image (https://replicate.com/black-forest-labs/flux-schnell, 2026-05-25)' });
    expect(result).not.toHaveProperty('billed_seconds');
    const created = double.received.filter((r) => r.method === 'POST').at(-1)!;
    expect(created.path).toBe('/v1/models/black-forest-labs/flux-schnell/predictions');
    expect(created.prefer).toBe('wait=30');
  });

  it('sends an image of 256 KB or less as a data URI, undecoded; a larger one through /v1/files, decoded once', async () => {
    let decodes = 0;
    const bytes = replicateCodec.bytes;
    replicateCodec.bytes = (b64) => { decodes++; return bytes(b64); };
    try {
      await backend().generate('sdxl', { prompt: 'p', init_image: small, mask_image: large });
      const input = double.predictions.at(-1)!.input;
      expect(input.image).toBe(`data:image/png;base64,${small}`);
      expect(input.mask).toMatch(new RegExp(`^${double.url}/v1/files/`));
      expect(decodes).toBe(1);
    } finally {
      replicateCodec.bytes = bytes;
    }
  });

  it('a ControlNet model answering one URL gives one image', async () => {
    const result = await backend({ names: { model: 'lucataco/sdxl-controlnet' } }).generate('controlnet-sdxl', { prompt: 'p', controlnet: 'svc:canny_sdxl', controlnet_image: small });
    expect(result.images).toHaveLength(1);
  });

  it('a safety refusal is said as such, not retried', async () => {
    const error = await caught(backend().generate('sdxl', { prompt: 'forbidden' }));
    expect(error.detail).toMatch(/^Replicate's safety checker refused the images of stability-ai\/sdxl:7762fd07.*, so none is kept; .*NSFW content detected/);
    expect(error.retryable).toBe(false);
  });

  it('says no token, a refused token, no credit, an unknown model and a refused field', async () => {
    const before = double.received.length;
    expect((await caught(createReplicateBackend({ baseUrl: double.url, ...fast }).generate('sdxl', { prompt: 'p' }))).detail).toMatch(/^not sent: Replicate needs an API token/);
    expect(double.received.length).toBe(before);
    const wrong = await caught(createReplicateBackend({ baseUrl: double.url, token: 'r8_wrong_token_value', ...fast }).generate('sdxl', { prompt: 'p' }));
    expect(wrong.detail).toMatch(/^Replicate refused the API token \(HTTP 401\)/);
    expect(wrong.message).not.toContain('r8_wrong_token_value');
    double.failNext({ status: 402, body: { title: 'Insufficient credit', detail: 'You have insufficient credit to run this model. Go to https://replicate.com/account/billing#billing to purchase credit.', status: 402 } });
    const credit = await caught(backend().generate('sdxl', { prompt: 'p' }));
    expect(credit.detail).toMatch(/^Replicate says the account is out of credit \(HTTP 402\)/);
    expect(credit.attempts).toBe(1);
    const unknown = await caught(backend({ names: { model: 'nobody/nothing' } }).generate('sdxl', { prompt: 'p' }));
    expect(unknown.detail).toMatch(/^Replicate has no model or version 'nobody\/nothing' \(HTTP 404\)/);
    const field = await caught(backend({ names: { model: 'stability-ai/stable-diffusion-3.5-large' } }).generate('sdxl', { prompt: 'p', steps: 80 }));
    expect(field.detail).toBe("Replicate refused steps (sent as 'steps'): ensure this value is less than or equal to 50 (HTTP 422)");
  });

  it('waits out a rate limit as Retry-After asks', async () => {
    const waits: number[] = [];
    double.failNext({ status: 429, body: { title: 'Request was throttled', detail: 'Request was throttled. Your rate limit resets in ~3s.', status: 429 }, headers: { 'Retry-After': '3' } });
    const result = await createReplicateBackend({ baseUrl: double.url, token: double.token, pollIntervalMs: 1, retry: { random: () => 0, sleep: (ms) => { waits.push(ms); return Promise.resolve(); } } }).generate('sdxl', { prompt: 'p' });
    expect(result.images).toHaveLength(1);
    expect(waits).toEqual([3000]);
  });

  it('a rate limit that outlasts the retries says how long Replicate asked to wait', async () => {
    const limited = { status: 429, body: { title: 'Request was throttled', detail: 'Request was throttled. Your rate limit resets in ~3s.', status: 429 }, headers: { 'Retry-After': '3' } };
    double.failNext(limited, limited, limited);
    const error = await caught(backend().generate('sdxl', { prompt: 'p' }));
    expect(error.detail).toBe('Replicate is limiting how fast requests may come (HTTP 429). Replicate said: Request was throttled. Your rate limit resets in ~3s; it asked to wait 3 s (Retry-After)');
    expect(error.attempts).toBe(3);
  });

  it('cancels the prediction at Replicate when the call is aborted while it starts', async () => {
    const controller = new AbortController();
    const error = await caught(backend().generate('sdxl', { prompt: 'p' }, { signal: controller.signal, onProgress: (_f, m) => { if (m?.startsWith('starting') === true) controller.abort(); } }));
    expect(error.kind).toBe('aborted');
    const p = double.predictions.at(-1)!;
    expect(p.status).toBe('canceled');
    expect(double.received.some((r) => r.method === 'POST' && r.path === `/v1/predictions/${p.id}/cancel`)).toBe(true);
  });

  it('takes the base URL with /v1 as the replicate client writes it, and lists the text-to-image collection', async () => {
    const names = await createReplicateBackend({ baseUrl: `${double.url}/v1`, token: double.token }).listNames?.();
    expect(names?.models).toContain('black-forest-labs/flux-dev');
  });
});
