/**
 * Progress over the forwarder's backend route: a client that asks for progress lines hears fal's
 * queue position, then its steps, in order, then the result, and nothing in them carries the key
 * or the backend's address; a failure after progress keeps its words and status; a client that
 * does not ask gets the plain JSON answer, unchanged.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import { createImageClient } from '../../api/image-client';
import { cleanProgress, wantsProgress } from '../../server/routes/forward-progress';
import { startFalDouble, type FalDouble } from '../helpers/doubles/fal';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { postJson } from './http';

let fal: FalDouble;
let server: ServerProcess;

beforeAll(async () => {
  fal = await startFalDouble({ queuePolls: 3, progressPolls: 2, flagPrompts: /forbidden/ });
  server = await startServer({ ATELIER_IMAGE_BACKEND: 'fal', ATELIER_BACKEND_URL: fal.url, ATELIER_BACKEND_TOKEN: fal.apiKey });
});
afterAll(async () => {
  await server.stop();
  await fal.close();
});

const client = () => createImageClient({ baseUrl: `${server.url}/forward/image`, retry: { maxAttempts: 1 } });

describe('progress from a backend, through the server', () => {
  it('fal: the queue position, then the steps, in order, then the images; no key, no backend address', async () => {
    const heard: { fraction: number; message?: string }[] = [];
    const response = await client().generate('sdxl', { prompt: 'a harbour at dawn', seed: 5 }, { onProgress: (fraction, message) => heard.push({ fraction, message }) });
    expect(response.images).toHaveLength(1);
    const said = heard.map((h) => h.message);
    expect(said).toEqual([
      'sending to fal',
      "waiting in fal's queue (2 ahead)",
      "waiting in fal's queue (1 ahead)",
      "waiting in fal's queue (0 ahead)",
      'step 1 of 2',
      'step 2 of 2',
      'done',
    ]);
    expect(heard.map((h) => h.fraction)).toEqual([0, 0, 0, 0, 0.5, 1, 1]);
    const all = JSON.stringify(heard);
    expect(all).not.toContain(fal.apiKey);
    expect(all).not.toContain(new URL(fal.url).host);
  });

  it('the raw answer is progress lines ending in the result, and never carries the key', async () => {
    const res = await postJson(server.url, '/forward/image/generate/sdxl', { prompt: 'a lighthouse' }, { Accept: 'application/x-ndjson, application/json;q=0.9' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = res.text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(lines.at(-1)!)).toEqual(['result']);
    expect(lines.slice(0, -1).every((l) => 'progress' in l)).toBe(true);
    expect(res.text).not.toContain(fal.apiKey);
  });

  it('a refusal after progress keeps fal\'s words and its 400, so the client does not send it again', async () => {
    const before = fal.jobs.length;
    const heard: string[] = [];
    const failed = await client().generate('sdxl', { prompt: 'something forbidden' }, { onProgress: (_f, m) => heard.push(m ?? '') }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).status).toBe(400);
    expect((failed as ApiError).retryable).toBe(false);
    expect((failed as ApiError).message).toMatch(/fal's safety checker flagged the image/);
    expect(heard).toContain("waiting in fal's queue (2 ahead)");
    expect(fal.jobs.length).toBe(before + 1);
  });

  it('a client that does not ask gets the plain JSON answer', async () => {
    const res = await postJson(server.url, '/forward/image/generate/sdxl', { prompt: 'a lighthouse' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect((JSON.parse(res.text) as { images: unknown[] }).images).toHaveLength(1);
  });

  it('a request the backend refuses before any progress is still a plain 400', async () => {
    const res = await postJson(server.url, '/forward/image/generate/sdxl', { prompt: '', steps: 'many' }, { Accept: 'application/x-ndjson' });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('a cancel while progress comes', () => {
  it('closes the request, and the server cancels it at fal', async () => {
    const held = await startFalDouble({ queuePolls: 2, holdQueue: true });
    const heldServer = await startServer({ ATELIER_IMAGE_BACKEND: 'fal', ATELIER_BACKEND_URL: held.url, ATELIER_BACKEND_TOKEN: held.apiKey });
    try {
      const controller = new AbortController();
      const heldClient = createImageClient({ baseUrl: `${heldServer.url}/forward/image` });
      const failed = await heldClient.generate('sdxl', { prompt: 'a lighthouse' }, {
        signal: controller.signal,
        onProgress: (_f, m) => { if (m?.startsWith("waiting in fal's queue")) controller.abort(); },
      }).catch((e: unknown) => e);
      expect((failed as ApiError).kind).toBe('aborted');
      await vi.waitFor(() => expect(held.received.some((r) => r.method === 'PUT' && r.path.endsWith('/cancel'))).toBe(true), { timeout: 30_000, interval: 100 });
      expect(held.jobs.map((j) => j.state)).toEqual(['CANCELLED']);
    } finally {
      await heldServer.stop();
      await held.close();
    }
  });
});

describe('what a progress message may say', () => {
  it('takes out secrets and backend addresses, and control characters', () => {
    const said = cleanProgress('queued at http://10.0.0.5:8188 with Key fal-key-id:fal-key-secret-0123456789\nnext', ['fal-key-id:fal-key-secret-0123456789'], ['http://10.0.0.5:8188', '10.0.0.5:8188']);
    expect(said).toBe('queued at the backend with Key [redacted] next');
  });

  it('is sent only to a client whose Accept asks for it', () => {
    expect(wantsProgress('application/x-ndjson, application/json;q=0.9')).toBe(true);
    expect(wantsProgress('application/json')).toBe(false);
    expect(wantsProgress(undefined)).toBe(false);
    expect(wantsProgress('application/x-ndjson;q=0, application/json')).toBe(false);
  });
});
