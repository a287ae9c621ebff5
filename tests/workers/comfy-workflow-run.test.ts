/**
 * A ComfyUI workflow node run by the worker on the ComfyUI double: a text wired into its prompt
 * port, its save node's pictures and its PreviewAny's text as outputs (the text feeding a Join
 * text), run to here and run from here, and bypassed (the text passes on, the pictures do not,
 * nothing is queued).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPipeline } from '../../api/backends/comfyui/pipeline/import';
import { fromStored } from '../../api/backends/comfyui/pipeline/model';
import { createImageClient } from '../../api/image-client';
import { comfyWorkflowParams } from '../../nodes/comfy-workflow';
import { registry } from '../../nodes/index';
import { setInputChoice } from '../../src/comfy/choices';
import type { Workflow } from '../../workflow/schema';
import { createWorkerApi } from '../../workers/worker-api';
import type { UiEvent } from '../../workers/transfer';
import { fixtureText, recordedObjectInfo } from '../backends/comfyui/pipeline/fixtures';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { fakeChatClient } from './fakes';

let comfy: ComfyDouble;
beforeAll(async () => {
  comfy = await startComfyDouble({ unets: ['flux1-dev.safetensors'], textEncoders: ['clip_l.safetensors', 't5xxl_fp16.safetensors'], vaes: ['ae.safetensors'] });
});
afterAll(() => comfy.close());

/** FLUX with its prompt from a String node that a PreviewAny also shows: the prompt a port, the text an output. */
function fluxWithText() {
  const api = JSON.parse(fixtureText('flux-dev', 'api')) as Record<string, { class_type: string; inputs: Record<string, unknown>; _meta?: { title: string } }>;
  api['90'] = { class_type: 'PrimitiveStringMultiline', inputs: { value: 'a red fox' }, _meta: { title: 'Prompt text' } };
  api['91'] = { class_type: 'PreviewAny', inputs: { source: ['90', 0] }, _meta: { title: 'Prompt used' } };
  api['6']!.inputs.text = ['90', 0];
  const info = recordedObjectInfo({ checkpoints: [], loras: [], vaes: ['ae.safetensors'], controlnets: [], embeddings: [], unets: ['flux1-dev.safetensors'], textEncoders: ['clip_l.safetensors', 't5xxl_fp16.safetensors'], upscalers: [], inputs: new Map() });
  const imported = importPipeline({ api: JSON.stringify(api) }, { info });
  const params = comfyWorkflowParams(imported, 'flux.json');
  Object.assign(params, setInputChoice(params, fromStored(params.pipeline), { node: '90', input: 'value' }, 'port', info));
  params.values.width = 64;
  params.values.height = 64;
  return params;
}

function flow(bypass = false): Workflow {
  const params = fluxWithText();
  return {
    format: 'atelier.workflow', version: 2,
    metadata: { title: 't', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
    nodes: [
      { id: 'subject', type: 'text', position: { x: 0, y: 0 }, params: { text: 'a lighthouse at dusk' } },
      { id: 'flux', type: 'comfy-workflow', position: { x: 300, y: 0 }, params, ...(bypass ? { bypass: true } : {}) },
      { id: 'joined', type: 'join-text', position: { x: 600, y: 0 }, params: {} },
      { id: 'shown', type: 'preview', position: { x: 600, y: 200 }, params: {} },
    ],
    edges: [
      { id: 'e1', source: { node: 'subject', port: 'text' }, target: { node: 'flux', port: 'value' } },
      { id: 'e2', source: { node: 'flux', port: 'prompt_used' }, target: { node: 'joined', port: 'items' } },
      { id: 'e3', source: { node: 'flux', port: 'images' }, target: { node: 'shown', port: 'value' } },
    ],
  } as Workflow;
}

async function worker() {
  const api = createWorkerApi({ registry, createImageClient, createChatClient: () => fakeChatClient().client, transfer: (v) => v });
  await api.configure({ imageBaseUrl: '', textBaseUrl: 'http://127.0.0.1:1/local/text', chatModel: 'm', imageBackends: { sdxl: { kind: 'comfyui', baseUrl: comfy.url } } });
  return api;
}

async function run(api: Awaited<ReturnType<typeof worker>>, workflow: Workflow, options: Parameters<Awaited<ReturnType<typeof worker>>['run']>[1]) {
  const events: UiEvent[] = [];
  const summary = await api.run(workflow, options, (e) => void events.push(e));
  const of = (id: string) => events.filter((e) => 'nodeId' in e && e.nodeId === id);
  const done = (id: string) => of(id).find((e) => e.type === 'node-done') as Extract<UiEvent, { type: 'node-done' }> | undefined;
  return { summary, of, done };
}

describe('a ComfyUI workflow node in the worker, on ComfyUI', () => {
  it('takes the wired text in its port and gives its pictures and its text as outputs', async () => {
    const api = await worker();
    const before = comfy.received.prompts.length;
    const { summary, done } = await run(api, flow(), { mode: 'all' });
    expect(summary.problems).toEqual([]);
    expect(summary.status).toBe('succeeded');
    expect(comfy.received.prompts.length).toBe(before + 1);
    const sent = comfy.received.prompts.at(-1)?.prompt as Record<string, { inputs: Record<string, unknown> }>;
    expect(sent['90']?.inputs.value).toBe('a lighthouse at dusk');
    expect(done('flux')?.outputs.prompt_used).toEqual({ kind: 'texts', value: ['a lighthouse at dusk'] });
    expect(done('flux')?.outputs.images).toMatchObject({ kind: 'images', value: [{ mime: 'image/png' }] });
    expect(done('joined')?.outputs.text).toEqual({ kind: 'text', value: 'a lighthouse at dusk' });
  });

  it('runs to here (the text and the node, not what follows) and from here (afresh, the text from the cache)', async () => {
    const api = await worker();
    const before = comfy.received.prompts.length;
    const to = await run(api, flow(), { mode: 'to', nodeId: 'flux' });
    expect(to.summary.status).toBe('succeeded');
    expect(to.of('joined')).toEqual([]);
    expect(to.of('subject').some((e) => e.type === 'node-done')).toBe(true);
    const from = await run(api, flow(), { mode: 'from', nodeId: 'flux' });
    expect(from.summary.status).toBe('succeeded');
    expect(from.done('flux')?.cached).toBe(false);
    expect(from.done('subject')?.cached ?? true).toBe(true);
    expect(from.done('joined')?.outputs.text).toEqual({ kind: 'text', value: 'a lighthouse at dusk' });
    // The node's workflow went to ComfyUI for each: to here, and from here afresh.
    expect(comfy.received.prompts.length).toBe(before + 2);
  });

  it('bypassed, passes its text input on to its text output, gives no pictures, and queues nothing', async () => {
    const api = await worker();
    const before = comfy.received.prompts.length;
    const { summary, of, done } = await run(api, flow(true), { mode: 'all' });
    expect(comfy.received.prompts.length).toBe(before);
    expect(of('flux').map((e) => e.type)).toContain('node-bypassed');
    expect(done('joined')?.outputs.text).toEqual({ kind: 'text', value: 'a lighthouse at dusk' });
    expect(of('shown').find((e) => e.type === 'node-skipped')).toMatchObject({ reason: expect.stringMatching(/images/i) });
    expect(summary.problems).toEqual([]);
  });
});
