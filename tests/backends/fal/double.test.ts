/**
 * The fal double speaks fal's real queue API: fal's own client (@fal-ai/client) runs against it,
 * with every URL it builds for queue.fal.run and rest.fal.ai pointed at the double through the
 * client's `fetch` option, and gets what it would get from fal. The double refuses what fal
 * refuses: a wrong auth scheme, an unknown model, an input the model's schema refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFalClient, type FalClient } from '@fal-ai/client';
import { startFalDouble, type FalDouble } from '../../helpers/doubles/fal';
import { makeImage } from '../../engines/image-test-utils';

let double: FalDouble;
let fal: FalClient;

/** fal's hosts, as fal-js addresses them, all served by the double. */
function toDouble(input: RequestInfo | URL): string {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  if (/(^|\.)fal\.(run|ai)$/.test(url.hostname)) return `${double.url}${url.pathname}${url.search}`;
  return url.href;
}

beforeAll(async () => {
  double = await startFalDouble({ queuePolls: 2, progressPolls: 2, flagPrompts: /forbidden/ });
  fal = createFalClient({
    credentials: double.apiKey,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => fetch(toDouble(input), init)) as typeof fetch,
  });
});
afterAll(async () => { await double.close(); });

describe('fal double, driven by @fal-ai/client', () => {
  it('fal.subscribe submits, reports the queue and the logs, and reads the result', async () => {
    const updates: string[] = [];
    const result = await fal.subscribe('fal-ai/fast-sdxl', {
      input: { prompt: 'a lighthouse', image_size: { width: 64, height: 48 }, num_images: 2, sync_mode: true, format: 'png' },
      logs: true, pollInterval: 1,
      onQueueUpdate: (update) => { updates.push(update.status); },
    });
    expect(updates).toContain('IN_QUEUE');
    expect(updates).toContain('IN_PROGRESS');
    const data = result.data as { images: { url: string; width: number }[]; has_nsfw_concepts: boolean[] };
    expect(data.images).toHaveLength(2);
    expect(data.images[0]!.url).toMatch(/^data:image\/png;base64,/);
    expect(data.has_nsfw_concepts).toEqual([false, false]);
    expect(result.requestId).toBe(double.jobs.at(-1)!.id);
    // Status and result of a sub-path model go to owner/alias, as fal-js builds them.
    await fal.subscribe('fal-ai/flux/dev', { input: { prompt: 'x', sync_mode: true }, pollInterval: 1 });
    expect(double.received.filter((r) => r.method === 'GET').at(-1)!.path).toMatch(/^\/fal-ai\/flux\/requests\/[^/]+$/);
  });

  it('fal.queue.submit / status / cancel follow the documented states', async () => {
    const { request_id } = await fal.queue.submit('fal-ai/flux/schnell', { input: { prompt: 'p' } });
    const first = await fal.queue.status('fal-ai/flux/schnell', { requestId: request_id, logs: true });
    expect(first.status).toBe('IN_QUEUE');
    expect((first as { queue_position: number }).queue_position).toBe(1);
    await fal.queue.cancel('fal-ai/flux/schnell', { requestId: request_id });
    expect(double.jobs.at(-1)!.state).toBe('CANCELLED');
  });

  it('the storage upload works as fal.storage.upload does it', async () => {
    const png = Buffer.from(await makeImage(8, 8, () => [1, 2, 3]), 'base64');
    const url = await fal.storage.upload(new Blob([new Uint8Array(png)], { type: 'image/png' }));
    const id = url.split('/files/')[1]!;
    expect(double.uploads.get(id)?.bytes.equals(png)).toBe(true);
  });

  it('refuses a wrong auth scheme, an unknown model and an input the schema refuses', async () => {
    const bearer = await fetch(`${double.url}/fal-ai/fast-sdxl`, { method: 'POST', body: '{"prompt":"p"}', headers: { Authorization: `Bearer ${double.apiKey}` } });
    expect(bearer.status).toBe(401);
    await expect(fal.queue.submit('fal-ai/no-such-model', { input: { prompt: 'p' } })).rejects.toMatchObject({ status: 404 });
    const refused = fal.subscribe('fal-ai/flux/dev', { input: { prompt: 'p', num_images: 9, num_inference_steps: 0 } as never, pollInterval: 1 });
    await expect(refused).rejects.toMatchObject({ status: 422, name: 'ValidationError' });
    const error = (await refused.catch((e: unknown) => e)) as { body: { detail: { loc: string[]; msg: string }[] } };
    expect(error.body.detail.map((d) => d.loc.join('.')).sort()).toEqual(['body.num_images', 'body.num_inference_steps']);
    const missing = fal.subscribe('fal-ai/fast-sdxl/inpainting', { input: { prompt: 'p', image_url: 'data:image/png;base64,AAAA' } as never, pollInterval: 1 });
    await expect(missing).rejects.toMatchObject({ status: 422 });
  });

  it('flags what its safety checker catches, with a blacked-out image', async () => {
    const result = await fal.subscribe('fal-ai/fast-sdxl', { input: { prompt: 'something forbidden', sync_mode: true }, pollInterval: 1 });
    expect((result.data as { has_nsfw_concepts: boolean[] }).has_nsfw_concepts).toEqual([true]);
  });
});
