/**
 * The executor and the estimate with an image backend that changes requests: what it refuses
 * stops the run before anything is sent (named on the node's field), what it approximates is
 * listed per node before the run, progress it reports reaches the node, and each call records
 * the backend and the request as translated. The backend here is a small one of the interface's
 * own; the real ones (ComfyUI, AUTOMATIC1111, OpenAI Images) have tests of their own against
 * doubles of those servers.
 */
import { describe, expect, it } from 'vitest';
import type { BackendKind, ImageBackend, TranslationReview } from '../../api/backends/types';
import { routeImageRequests, backendsScope } from '../../api/backends/index';
import type { ImageClient } from '../../api/client-types';
import type { ImageRequest } from '../../api/image-schema';
import { registry } from '../../nodes/index';
import { createMemoryCache } from '../../workers/cache';
import { estimateRun } from '../../workers/estimate';
import { createExecutor } from '../../workers/executor';
import { eventLog, fakeChatClient, workflow } from './fakes';

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Refuses subject transfer, leaves out the negative prompt, counts its steps. */
function strictBackend(kind: BackendKind = 'openai') {
  const sent: { engine: string; request: ImageRequest }[] = [];
  const review = (_engine: string, request: ImageRequest): TranslationReview => ({
    backend: kind,
    label: 'Strict backend',
    refusals: request.transfer_images === undefined ? [] : [{ path: 'transfer_images', message: 'it has no subject transfer' }],
    notes: request.negative_prompt === undefined ? [] : [{ field: 'negative_prompt', treatment: 'not-sent', message: 'the negative prompt is not sent' }],
    translated: { text: request.prompt },
  });
  const backend: ImageBackend = {
    kind,
    label: 'Strict backend',
    review,
    async generate(engine, request, options) {
      sent.push({ engine, request });
      options?.onProgress?.(0.5, 'step 1 of 2');
      return { images: [{ image_b64: PNG_1PX }] };
    },
  };
  return { backend, sent };
}

const refusingService: ImageClient = {
  generate: () => Promise.reject(new Error('the service must not be called for a routed engine')),
};

describe('image backends in the executor', () => {
  it('routes only the engines given a backend, and the service keeps the others', async () => {
    const { backend } = strictBackend();
    const client = await routeImageRequests(refusingService, { sd: { kind: 'openai', baseUrl: 'http://127.0.0.1:1' } }, {}, {}, () => backend);
    expect(client.review?.('sd', { prompt: 'x' })?.label).toBe('Strict backend');
    expect(client.review?.('sdxl', { prompt: 'x' })).toBeUndefined();
    expect(await routeImageRequests(refusingService, {})).toBe(refusingService);
  });

  it('a mode the backend cannot do is a problem on the node, and nothing is sent', async () => {
    const { backend, sent } = strictBackend();
    const exec = createExecutor({
      registry,
      api: { image: await routeImageRequests(refusingService, { sdxl: { kind: 'openai', baseUrl: 'http://127.0.0.1:1' } }, {}, {}, () => backend), chat: fakeChatClient().client },
      settings: { chatModel: 'm' },
    });
    const wf = workflow(
      [['a', 'image-loader', { image: { b64: PNG_1PX, mime: 'image/png', name: 'sample.png' } }], ['m', 'merge', { prompt: 'a photo of sks', trigger_word: 'sks', seed: 1 }]],
      ['a.image -> m.sample_1'],
    );
    const summary = await exec.run(wf);
    expect(summary.status).toBe('invalid');
    expect(summary.problems).toEqual([
      { nodeId: 'm', field: 'trigger_word', message: 'Trigger word: Strict backend cannot take this request: it has no subject transfer' },
    ]);
    expect(sent).toEqual([]);
  });

  it('lists what will be left out before the run, reports progress, and records the translation with the call', async () => {
    const { backend, sent } = strictBackend();
    const image = await routeImageRequests(refusingService, { sdxl: { kind: 'openai', baseUrl: 'http://127.0.0.1:1' } }, {}, {}, () => backend);
    const wf = workflow([['g', 'text-to-image', { prompt: 'a lighthouse', negative_prompt: 'fog', seed: 3 }]], []);

    const estimate = await estimateRun(wf, registry, { mode: 'all' }, { cache: createMemoryCache(), settings: { chatModel: 'm' }, review: image.review!.bind(image) });
    expect(estimate.ok && estimate.nodes[0]?.backend).toEqual({
      label: 'Strict backend', notes: [{ field: 'negative_prompt', treatment: 'not-sent', message: 'the negative prompt is not sent' }],
    });

    const log = eventLog();
    const exec = createExecutor({ registry, api: { image, chat: fakeChatClient().client }, settings: { chatModel: 'm' } });
    const summary = await exec.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(summary.status).toBe('succeeded');
    expect(sent).toHaveLength(1);
    expect(log.events).toContainEqual(expect.objectContaining({ type: 'node-progress', nodeId: 'g', fraction: 0.5, message: 'step 1 of 2' }));
    const request = log.events.find((e) => e.type === 'node-request');
    expect(request?.type === 'node-request' && request.call.backend).toEqual({
      kind: 'openai', label: 'Strict backend', translated: { text: 'a lighthouse' },
      notes: [{ field: 'negative_prompt', treatment: 'not-sent', message: 'the negative prompt is not sent' }],
    });
  });

  it('a prompt that arrives through a port is reviewed again at run time, and a refusal then sends nothing', async () => {
    const refuseLong: ImageBackend = {
      ...strictBackend().backend,
      review: (_engine, request) => ({
        backend: 'comfyui', label: 'Picky', notes: [], translated: {},
        refusals: request.prompt.includes('indeed') ? [{ path: 'prompt', message: 'is too long for it' }] : [],
      }),
      generate: () => Promise.reject(new Error('must not be sent')),
    };
    const image = await routeImageRequests(refusingService, { sdxl: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:1' } }, {}, {}, () => refuseLong);
    const exec = createExecutor({ registry, api: { image, chat: fakeChatClient().client }, settings: { chatModel: 'm' } });
    const wf = workflow(
      [['t', 'text', { text: 'a very long prompt indeed' }], ['g', 'text-to-image', { seed: 3 }]],
      ['t.text -> g.prompt'],
    );
    const summary = await exec.run(wf);
    expect(summary.status).toBe('failed');
    expect(summary.apiCalls).toBe(0);
    expect(summary.failures[0]?.error).toMatchObject({ field: 'prompt', message: expect.stringContaining('Picky cannot take this request: is too long for it') });
  });

  it('the cache scope names each backend and its names, never a credential', () => {
    const scope = backendsScope({ sd: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188', names: { checkpoint: 'v1-5.safetensors' } } });
    expect(scope).toContain('comfyui');
    expect(scope).toContain('v1-5.safetensors');
    expect(backendsScope({})).toBe('');
  });
});
