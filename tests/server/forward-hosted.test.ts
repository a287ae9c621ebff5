/**
 * The forwarder on fal and Replicate: the real server process, started as a person with a key
 * would (ATELIER_IMAGE_BACKEND=fal|replicate, ATELIER_BACKEND_URL, ATELIER_BACKEND_TOKEN), sends a
 * browser's service-shaped request to the provider's double translated, holds the key, answers in
 * the service's shape, and says a safety refusal in the provider's words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalDouble, type FalDouble } from '../helpers/doubles/fal';
import { startReplicateDouble, type ReplicateDouble } from '../helpers/doubles/replicate';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { postJson } from './http';

let fal: FalDouble;
let replicate: ReplicateDouble;
let falServer: ServerProcess;
let replicateServer: ServerProcess;

beforeAll(async () => {
  fal = await startFalDouble({ queuePolls: 0, progressPolls: 0, flagPrompts: /forbidden/ });
  replicate = await startReplicateDouble({ coldPolls: 0, steps: 0, flagPrompts: /forbidden/ });
  [falServer, replicateServer] = await Promise.all([
    startServer({ ATELIER_IMAGE_BACKEND: 'fal', ATELIER_BACKEND_URL: fal.url, ATELIER_BACKEND_TOKEN: fal.apiKey }),
    startServer({ ATELIER_IMAGE_BACKEND: 'replicate', ATELIER_BACKEND_URL: replicate.url, ATELIER_BACKEND_TOKEN: replicate.token }),
  ]);
});
afterAll(async () => {
  await Promise.all([falServer.stop(), replicateServer.stop()]);
  await Promise.all([fal.close(), replicate.close()]);
});

describe('the forwarder on a hosted provider', () => {
  it('fal: translated, the key held by the server, answered in the service\'s shape', async () => {
    const res = await postJson(falServer.url, '/forward/image/generate/sdxl', { prompt: 'a harbour at dawn', seed: 5, width: 1152, height: 896 });
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text) as { images: { image_b64: string; seed?: number }[] };
    expect(body.images).toHaveLength(1);
    expect(body.images[0]!.seed).toBe(5);
    expect(fal.jobs.at(-1)!.input).toMatchObject({ prompt: 'a harbour at dawn', image_size: { width: 1152, height: 896 }, seed: 5 });
    expect(fal.received.at(-1)!.authorization).toBe(`Key ${fal.apiKey}`);
    expect(res.text).not.toContain(fal.apiKey);
  });

  it('fal: an image its safety checker flags is refused, in fal\'s words, never answered as the picture', async () => {
    const res = await postJson(falServer.url, '/forward/image/generate/sdxl', { prompt: 'something forbidden' });
    // 400, not 502: the browser's client retries a 502, and each retry would run (and bill) again.
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/fal's safety checker flagged the image/);
    expect(res.text).not.toMatch(/image_b64/);
  });

  it('Replicate: a mode the model cannot do is a 400 naming the field, and nothing is sent', async () => {
    const before = replicate.predictions.length;
    const res = await postJson(replicateServer.url, '/forward/image/generate/sd', { prompt: 'p', init_image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/init_image: .*Stable Diffusion on Replicate cannot do image to image/);
    expect(replicate.predictions.length).toBe(before);
  });

  it('Replicate: a safety refusal is a 400 in Replicate\'s words, so the browser does not send it again', async () => {
    const before = replicate.predictions.length;
    const res = await postJson(replicateServer.url, '/forward/image/generate/sdxl', { prompt: 'something forbidden' });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/Replicate's safety checker refused the images of stability-ai\/sdxl/);
    expect(res.text).not.toMatch(/image_b64/);
    expect(replicate.predictions.length).toBe(before + 1);
  });

  it('Replicate: translated and answered', async () => {
    const res = await postJson(replicateServer.url, '/forward/image/generate/sdxl', { prompt: 'a lighthouse', num_images: 2 });
    expect(res.status).toBe(200);
    expect((JSON.parse(res.text) as { images: unknown[] }).images).toHaveLength(2);
    expect(replicate.received.find((r) => r.path === '/v1/predictions')!.authorization).toBe(`Bearer ${replicate.token}`);
  });
});
