/**
 * The worker's side of the backend settings: it asks a backend what it has for the settings'
 * suggestions (with the credential, of that backend's URL only, saying in words why it could
 * not), and it runs with no image API base URL when every engine goes to a backend.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createImageClient } from '../../api/image-client';
import { registry } from '../../nodes/index';
import { createWorkerApi } from '../../workers/worker-api';
import { closedPort } from '../helpers/closed-port';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { startOpenAIImagesDouble, type OpenAIImagesDouble } from '../helpers/doubles/openai-images';
import { fakeChatClient, fakeImageClient } from './fakes';

const doubles: (ComfyDouble | OpenAIImagesDouble)[] = [];
afterEach(async () => {
  for (const d of doubles.splice(0)) await d.close();
});

function workerApi() {
  const image = fakeImageClient({ latencyMs: 1 });
  const api = createWorkerApi({ registry, createImageClient: () => image.client, createChatClient: () => fakeChatClient().client, transfer: (v) => v });
  return { api, image };
}

/** With the real service client, which refuses an empty base URL, as the worker entry has it. */
const realWorkerApi = () => createWorkerApi({ registry, createImageClient, createChatClient: () => fakeChatClient().client, transfer: (v) => v });

describe('asking a backend what it has, for the settings', () => {
  it('lists ComfyUI’s checkpoints and other files', async () => {
    const comfy = await startComfyDouble();
    doubles.push(comfy);
    const answer = await workerApi().api.listBackendNames({ kind: 'comfyui', baseUrl: comfy.url });
    expect(answer).toMatchObject({ ok: true, names: { checkpoints: ['sd_xl_base_1.0.safetensors', 'sd_xl_refiner_1.0.safetensors', 'v1-5-pruned-emaonly.safetensors'] } });
  });

  it('sends the credential to that backend only, and never says it back', async () => {
    const openai = await startOpenAIImagesDouble();
    doubles.push(openai);
    const { api } = workerApi();
    const listed = await api.listBackendNames({ kind: 'openai', baseUrl: openai.url }, openai.apiKey);
    expect(listed.ok && listed.names.models).toContain('gpt-image-1');
    expect(openai.received.map((r) => [r.method, r.path, r.authorization])).toEqual([['GET', '/v1/models', `Bearer ${openai.apiKey}`]]);

    const refused = await api.listBackendNames({ kind: 'openai', baseUrl: openai.url }, 'sk-wrong-key-0123456789');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.reason).toMatch(/^HTTP 401 Unauthorized: Incorrect API key provided/);
    expect(JSON.stringify(refused)).not.toContain('sk-wrong-key-0123456789');
  });

  it('says in words why it could not ask a backend that is not running', async () => {
    const port = await closedPort();
    const answer = await workerApi().api.listBackendNames({ kind: 'comfyui', baseUrl: `http://127.0.0.1:${port}` }, 'proxy-secret');
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.reason).toMatch(/^ComfyUI is not running at http:\/\/127\.0\.0\.1:\d+ \(connection refused\): start ComfyUI/);
    expect(JSON.stringify(answer)).not.toContain('proxy-secret');
  });
});

describe('through the server', () => {
  it('reviews with the backends the server names, and leaves out a kind this build does not know', async () => {
    const api = workerApi().api;
    await api.configure({
      imageBaseUrl: 'http://127.0.0.1:1/forward/image', textBaseUrl: 'http://127.0.0.1:1/forward/text', chatModel: 'm',
      forwardedBackends: { sdxl: { kind: 'openai' }, sd: { kind: 'gpu-farm' as never } },
    });
    const node = (id: string, engine: string) => ({ id, type: 'text-to-image', position: { x: 0, y: 0 }, params: registry.get('text-to-image')!.params.parse({ prompt: 'a lighthouse', seed: 5, engine }) as Record<string, unknown> });
    const workflow = { format: 'atelier.workflow' as const, version: 1 as const, metadata: { title: 't', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' }, nodes: [node('x', 'sdxl'), node('s', 'sd')], edges: [] };
    const estimate = await api.estimate(workflow, { mode: 'all' });
    if (!estimate.ok) throw new Error('the estimate failed');
    expect(estimate.nodes.find((n) => n.nodeId === 'x')?.backend?.label).toBe('OpenAI Images');
    expect(estimate.nodes.find((n) => n.nodeId === 's')?.backend).toBeUndefined();
  });
});

describe('every engine on a backend', () => {
  it('needs no image API base URL, and an engine left on the service’s API says it has none', async () => {
    const comfy = await startComfyDouble();
    doubles.push(comfy);
    const api = realWorkerApi();
    const backend = { kind: 'comfyui' as const, baseUrl: comfy.url, names: { checkpoint: 'sd_xl_base_1.0.safetensors' } };
    await api.configure({ imageBaseUrl: '', textBaseUrl: 'http://127.0.0.1:1/local/text', chatModel: 'm', imageBackends: { sdxl: backend, sd: backend, 'controlnet-sdxl': backend } });
    const draw = { id: 'draw', type: 'text-to-image', position: { x: 0, y: 0 }, params: { ...(registry.get('text-to-image')!.params.parse({ prompt: 'a lighthouse', seed: 5, steps: 2 }) as Record<string, unknown>) } };
    const workflow = { format: 'atelier.workflow' as const, version: 1 as const, metadata: { title: 't', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' }, nodes: [draw], edges: [] };
    expect(await api.run(workflow, { mode: 'all' }, () => undefined)).toMatchObject({ status: 'succeeded' });
    expect(comfy.received.prompts).toHaveLength(1);

    await api.configure({ imageBaseUrl: '', textBaseUrl: 'http://127.0.0.1:1/local/text', chatModel: 'm', imageBackends: { sd: backend } });
    const summary = await api.run(workflow, { mode: 'all' }, () => undefined);
    expect(summary.status).toBe('failed');
    expect(JSON.stringify(summary)).toContain("no image API base URL is set in Settings for the engines that use the service's API");
  });
});

describe('names the backend listed, checked when the run is planned', () => {
  const draw = (params: Record<string, unknown>) => ({ id: 'draw', type: 'text-to-image', position: { x: 0, y: 0 }, params: registry.get('text-to-image')!.params.parse({ prompt: 'a lighthouse', seed: 5, steps: 2, ...params }) as Record<string, unknown> });
  const flow = (params: Record<string, unknown> = {}) => ({ format: 'atelier.workflow' as const, version: 1 as const, metadata: { title: 't', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' }, nodes: [draw(params)], edges: [] });

  it('a checkpoint from the settings that the backend did not list stops the run on the node, with the suggestion, and nothing is sent', async () => {
    const comfy = await startComfyDouble();
    doubles.push(comfy);
    const api = realWorkerApi();
    const backend = { kind: 'comfyui' as const, baseUrl: comfy.url, names: { checkpoint: 'sd_xl_base_1.0.ckpt' } };
    const listed = await api.listBackendNames(backend);
    if (!listed.ok) throw new Error(listed.reason);
    await api.configure({ imageBaseUrl: '', textBaseUrl: 'http://127.0.0.1:1/local/text', chatModel: 'm', imageBackends: { sdxl: backend }, backendNames: { sdxl: listed.names } });
    const estimate = await api.estimate(flow(), { mode: 'all' });
    expect(estimate.ok).toBe(false);
    const summary = await api.run(flow(), { mode: 'all' }, () => undefined);
    expect(summary.status).toBe('invalid');
    expect(summary.problems).toEqual([{
      nodeId: 'draw', field: 'checkpoint',
      message: expect.stringContaining("ComfyUI cannot take this request: it has no checkpoint 'sd_xl_base_1.0.ckpt' (the checkpoint set for sdxl in the backend's settings); did you mean 'sd_xl_base_1.0.safetensors'?") as unknown,
    }]);
    expect(comfy.received.prompts).toHaveLength(0);
  });

  it("a LoRA the node names is checked on the node's field; without lists nothing is guessed", async () => {
    const api = workerApi().api;
    const backend = { kind: 'comfyui' as const, baseUrl: 'http://127.0.0.1:1', names: { checkpoint: 'base.safetensors' } };
    await api.configure({ imageBaseUrl: 'http://127.0.0.1:1', textBaseUrl: 'http://127.0.0.1:1', chatModel: 'm', imageBackends: { sdxl: backend }, backendNames: { sdxl: { checkpoints: ['base.safetensors'], loras: ['detail.safetensors'] } } });
    const refused = await api.estimate(flow({ loras: { 'detal.safetensors': 0.5 } }), { mode: 'all' });
    expect(!refused.ok && refused.problems.map((p) => [p.field, p.message])).toEqual([['loras', expect.stringMatching(/it has no LoRA 'detal.safetensors'; did you mean 'detail.safetensors'\?/) as unknown]]);
    await api.configure({ imageBaseUrl: 'http://127.0.0.1:1', textBaseUrl: 'http://127.0.0.1:1', chatModel: 'm', imageBackends: { sdxl: backend } });
    expect((await api.estimate(flow({ loras: { 'detal.safetensors': 0.5 } }), { mode: 'all' })).ok).toBe(true);
  });

  it('through the server, the lists its /api/info gives are checked too', async () => {
    const api = workerApi().api;
    await api.configure({
      imageBaseUrl: 'http://127.0.0.1:1/forward/image', textBaseUrl: 'http://127.0.0.1:1/forward/text', chatModel: 'm',
      forwardedBackends: { sdxl: { kind: 'comfyui', names: { checkpoint: 'sd_xl_base_1.0.ckpt' }, listed: { checkpoints: ['sd_xl_base_1.0.safetensors'] } } },
    });
    const estimate = await api.estimate(flow(), { mode: 'all' });
    expect(!estimate.ok && estimate.problems[0]?.message).toMatch(/ComfyUI cannot take this request: it has no checkpoint 'sd_xl_base_1.0.ckpt'/);
  });
});

describe('chat apart from images', () => {
  it("the chat client gets chatAuth's token when set, never the images' token", async () => {
    const configs: { baseUrl: string; token?: string }[] = [];
    const api = createWorkerApi({ registry, createImageClient: () => fakeImageClient().client, createChatClient: (config) => { configs.push(config); return fakeChatClient().client; }, transfer: (v) => v });
    await api.configure({ imageBaseUrl: 'https://img.example', textBaseUrl: 'http://127.0.0.1:8787/local/text', token: 'direct-tok', chatAuth: {}, chatModel: 'm' });
    await api.configure({ imageBaseUrl: 'https://img.example', textBaseUrl: 'http://127.0.0.1:8787/local/text', token: 'direct-tok', chatAuth: { token: 'srv' }, chatModel: 'm' });
    await api.configure({ imageBaseUrl: 'https://img.example', textBaseUrl: 'https://chat.example', token: 'direct-tok', chatModel: 'm' });
    expect(configs.map((c) => c.token)).toEqual([undefined, 'srv', 'direct-tok']);
  });
});
