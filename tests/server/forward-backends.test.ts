/**
 * The forwarder with image backends: the real server process, started as a person would
 * (ATELIER_IMAGE_BACKEND, ATELIER_BACKEND_URL, ATELIER_BACKEND_TOKEN), sends a browser's
 * service-shaped request to the backend's double translated, holds the credential, and answers
 * in the service's shape; what the backend cannot take is a 400 naming the field and nothing is
 * sent; /api/info names the backend and never its URL or credential.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startA1111Double, type A1111Double } from '../helpers/doubles/a1111';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { postJson, raw } from './http';

const CREDENTIAL = 'painter:forward-Pa55word';
let a1111: A1111Double;
let comfy: ComfyDouble;
let server: ServerProcess;
let comfyServer: ServerProcess;

beforeAll(async () => {
  a1111 = await startA1111Double({ apiAuth: CREDENTIAL });
  comfy = await startComfyDouble();
  [server, comfyServer] = await Promise.all([
    startServer({ ATELIER_IMAGE_BACKEND: 'a1111', ATELIER_BACKEND_URL: a1111.url, ATELIER_BACKEND_TOKEN: CREDENTIAL }),
    startServer({ ATELIER_IMAGE_BACKEND: 'comfyui', ATELIER_BACKEND_URL: comfy.url }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.stop(), comfyServer.stop()]);
  await Promise.all([a1111.close(), comfy.close()]);
});

describe('the forwarder on an image backend', () => {
  it('translates the request, sends the credential itself, and answers in the service\'s shape', async () => {
    const res = await postJson(server.url, '/forward/image/generate/sd', { prompt: 'a harbour at dawn', seed: 5, steps: 4, sampler: 'K_EULER_ANCESTRAL' });
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text) as { images: { image_b64: string; seed?: number }[] };
    expect(body.images).toHaveLength(1);
    expect(body.images[0]!.seed).toBe(5);
    expect(Buffer.from(body.images[0]!.image_b64, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(a1111.generations.at(-1)).toMatchObject({ sampler: 'Euler a', route: 'txt2img' });
    expect(res.text).not.toContain(CREDENTIAL);
  });

  it('checks the request as the service would, naming the field, and sends nothing', async () => {
    const before = a1111.generations.length;
    const res = await postJson(server.url, '/forward/image/generate/sdxl', { prompt: 'x', steps: 0 });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^steps: /);
    expect(a1111.generations.length).toBe(before);
  });

  it('a mode the backend cannot do is refused with its reason, and nothing is sent', async () => {
    const before = comfy.received.prompts.length;
    const res = await postJson(comfyServer.url, '/forward/image/generate/sdxl', { prompt: 'a photo of sks', transfer_images: { sks: ['/9j/4AAQSkZJRgABAQ=='] } });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/transfer_images: ComfyUI cannot take this request/);
    expect(comfy.received.prompts.length).toBe(before);
  });

  it('a backend that refuses, in its own words, names the missing setting', async () => {
    const res = await postJson(comfyServer.url, '/forward/image/generate/sdxl', { prompt: 'a lighthouse', seed: 1, steps: 2 });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/ComfyUI.*checkpoint/i);
  });

  it('/api/info names each engine\'s backend, never its address or credential', async () => {
    const info = JSON.parse((await raw(server.url, '/api/info')).text) as { forwarder: { image: boolean; imageBackends: Record<string, unknown> } };
    expect(info.forwarder.image).toBe(true);
    // With what the backend lists, asked by the server with the credential it holds.
    const a1111Backend = { kind: 'a1111', label: 'AUTOMATIC1111 / Forge', listed: expect.objectContaining({ checkpoints: ['sd_xl_base_1.0.safetensors', 'sd_xl_refiner_1.0.safetensors', 'v1-5-pruned-emaonly.safetensors'] }) as unknown };
    expect(info.forwarder.imageBackends).toEqual({ sdxl: a1111Backend, sd: a1111Backend, 'controlnet-sdxl': a1111Backend });
    const text = JSON.stringify(info);
    expect(text).not.toContain(CREDENTIAL);
    expect(text).not.toContain(new URL(a1111.url).port);
  });

  it('a server started with only ATELIER_IMAGE_BACKEND runs a chat node on the local text engine, and /api/info says so', async () => {
    const info = JSON.parse((await raw(comfyServer.url, '/api/info')).text) as { forwarder: { text: boolean; chat: string } };
    expect(info.forwarder).toMatchObject({ text: false, chat: 'local' });
    // The chat node's request, as the editor's worker sends it on the route through this server.
    const { createChatClient } = await import('../../api/chat-client');
    const { registry } = await import('../../nodes/index');
    const { createExecutor } = await import('../../workers/executor');
    const { createImageClient } = await import('../../api/image-client');
    const executor = createExecutor({
      registry, settings: { chatModel: 'atelier-local-chat' },
      api: { image: createImageClient({ baseUrl: `${comfyServer.url}/forward/image` }), chat: createChatClient({ baseUrl: `${comfyServer.url}/forward/text` }) },
    });
    const writer = registry.get('chat-prompt-writer')!;
    const workflow = {
      format: 'atelier.workflow' as const, version: 1 as const, metadata: { title: 't', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
      nodes: [{ id: 'chat', type: writer.type, position: { x: 0, y: 0 }, params: writer.params.parse({ user: 'a lighthouse at dusk', max_tokens: 40 }) as Record<string, unknown> }], edges: [],
    };
    const summary = await executor.run(workflow);
    expect(summary.status).toBe('succeeded');
    expect(comfy.received.prompts).toHaveLength(0);
    expect(comfyServer.output()).toContain('text to the local text engine (offline stand-in');
  });

  it("a checkpoint in the server's config that ComfyUI does not list is refused before sending, with the file it has, and /api/info gives the lists", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atelier-names-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ imageBackends: { sdxl: { kind: 'comfyui', baseUrl: comfy.url, names: { checkpoint: 'sd_xl_base_1.0.ckpt' } } } }));
    chmodSync(file, 0o600);
    const named = await startServer({ ATELIER_CONFIG: file });
    try {
      const info = JSON.parse((await raw(named.url, '/api/info')).text) as { forwarder: { imageBackends: Record<string, { listed?: { checkpoints?: string[] } }> } };
      expect(info.forwarder.imageBackends.sdxl?.listed?.checkpoints).toContain('sd_xl_base_1.0.safetensors');
      const before = comfy.received.prompts.length;
      const res = await postJson(named.url, '/forward/image/generate/sdxl', { prompt: 'a lighthouse', seed: 1, steps: 2 });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/^checkpoint: ComfyUI cannot take this request: it has no checkpoint 'sd_xl_base_1\.0\.ckpt' \(the checkpoint set for sdxl in the backend's settings\); did you mean 'sd_xl_base_1\.0\.safetensors'\?/);
      expect(comfy.received.prompts.length).toBe(before);
    } finally {
      await named.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the start-up lines say where each engine goes, without the credential', () => {
    expect(server.output()).toMatch(/backend: +sdxl to AUTOMATIC1111 \/ Forge at 127\.0\.0\.1:\d+ \(with ATELIER_BACKEND_TOKEN\)/);
    expect(server.output()).toContain('forwarder:    image to backends (below)');
    expect(server.output()).not.toContain(CREDENTIAL);
  });
});
