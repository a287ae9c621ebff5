/**
 * A ComfyUI workflow node's seeds have the image nodes' modes: a seed left empty is drawn before
 * sending (never sent as null) and reported with the images, so the run's record pins it; fixed,
 * increment and random move on after a run as an image node's seed does; a seed port keeps a seed
 * of its own for when no wire gives one, and a wired seed is the wire's.
 */
import { describe, expect, it } from 'vitest';
import type { ImageClient } from '../../api/client-types';
import { importPipeline } from '../../api/backends/comfyui/pipeline/import';
import type { PipelineRunRequest } from '../../api/backends/comfyui/pipeline/request';
import { comfyWorkflowParams, type ComfyWorkflowParams } from '../../nodes/comfy-workflow';
import { checkNodeParams } from '../../nodes/check-params';
import { registry } from '../../nodes/index';
import { pinSeedPatch } from '../../nodes/seed-control';
import { seedUsed } from '../../nodes/seed-used';
import { createExecutor } from '../../workers/executor';
import { nextSeeds, pinSeedsUsed } from '../../workers/seeds';
import type { Workflow } from '../../workflow/schema';
import { fixtureText } from '../backends/comfyui/pipeline/fixtures';
import { component, withComponents } from '../components/helpers';
import { eventLog, fakeChatClient, fakeImageB64, workflow } from './fakes';

/** FLUX.1 [dev] (its seed: RandomNoise's noise_seed, node 25) with a second sampler seed made a field too. */
function flux(values: Record<string, unknown> = {}, modes: ComfyWorkflowParams['seed_modes'] = {}): ComfyWorkflowParams {
  const p = comfyWorkflowParams(importPipeline({ api: fixtureText('flux-dev', 'api') }), 'flux-dev.json');
  return { ...p, values: { ...p.values, ...values }, seed_modes: modes };
}

/** An image client that runs pipelines: records each request and answers one picture per output. */
function pipelineClient(server?: string) {
  const requests: PipelineRunRequest[] = [];
  const image: ImageClient = {
    generate: () => Promise.reject(new Error('not used')),
    runPipeline: (request) => {
      requests.push(request);
      return Promise.resolve({
        outputs: request.outputs.map((o) => ({ name: o.name, images: [{ b64: fakeImageB64(`run ${requests.length}`), mime: 'image/jpeg', filename: 'x.jpg' }], texts: [] })),
        record: { prompt: request.pipeline, classes: [], files: [] },
        ...(server === undefined ? {} : { server }),
      });
    },
  };
  return { image, requests };
}

function executor(image: ImageClient, seeds: number[] = [777]) {
  return createExecutor({ registry, api: { image, chat: fakeChatClient().client }, settings: { chatModel: 'm' }, randomSeed: () => seeds.shift() ?? 1 });
}

const sentSeed = (request: PipelineRunRequest | undefined) => request?.set.find((s) => s.node === '25' && s.input === 'noise_seed')?.value;
const paramsOf = (wf: Workflow, id = 'f') => wf.nodes.find((n) => n.id === id)!.params as ComfyWorkflowParams;

describe("a ComfyUI workflow node's seed", () => {
  it('starts as the workflow\'s own seed, fixed, and may be empty (random each run); a seed must be a number', () => {
    const p = flux();
    expect(p.values.seed).toBe(219670278747233);
    const problems = (params: ComfyWorkflowParams) => {
      const check = checkNodeParams(registry.get('comfy-workflow')!, params as unknown as Record<string, unknown>, new Set());
      return check.ok ? [] : check.problems.map((x) => `${x.field}: ${x.message}`);
    };
    expect(problems(flux({ seed: null }, { seed: 'increment' }))).toEqual([]);
    expect(problems(flux({ seed: 'soon' }))).toEqual(['seed: must be a number']);
    expect(problems({ ...flux(), seed_modes: { seed: 'sometimes' } } as unknown as ComfyWorkflowParams)).toEqual([expect.stringMatching(/^seed_modes.*must be one of fixed, increment, random/)]);
  });

  it('random each run: a seed is drawn before sending, never null, and the images carry it; such a run is not cached', async () => {
    const { image, requests } = pipelineClient();
    const run = executor(image, [4242, 4243]);
    const wf = workflow([['f', 'comfy-workflow', flux({ seed: null })]]);
    const log = eventLog();
    await run.run(wf, { mode: 'all', onEvent: log.onEvent });
    expect(sentSeed(requests[0])).toBe(4242);
    const done = log.events.find((e) => e.type === 'node-done');
    expect(done?.type === 'node-done' && seedUsed(done.outputs)).toBe(4242);
    await run.run(wf, { mode: 'all' });
    expect(sentSeed(requests[1])).toBe(4243);
    // The record of the run pins the seed it drew, fixed, so that it makes the same pictures again.
    const pinned = paramsOf(pinSeedsUsed(wf, registry, new Map([['f', 4242]])));
    expect([pinned.values.seed, pinned.seed_modes.seed]).toEqual([4242, 'fixed']);
  });

  it('fixed is sent as it is and cached; increment and random move on after the run as an image node\'s seed does', async () => {
    const { image, requests } = pipelineClient();
    const run = executor(image);
    const fixed = workflow([['f', 'comfy-workflow', flux({ seed: 5 })]]);
    await run.run(fixed, { mode: 'all' });
    const again = await run.run(fixed, { mode: 'all' });
    expect(requests.map(sentSeed)).toEqual([5]);
    expect(again.nodes.cached).toBe(1);
    expect(nextSeeds(fixed, registry).changes).toEqual([]);

    const moving = workflow([['f', 'comfy-workflow', flux({ seed: 5 }, { seed: 'increment' })], ['r', 'comfy-workflow', flux({ seed: 9 }, { seed: 'random' })]]);
    const next = nextSeeds(moving, registry, { random: () => 0.5 });
    expect(next.changes).toEqual([
      { nodeId: 'f', slot: 'seed', mode: 'increment', from: 5, to: 6 },
      { nodeId: 'r', slot: 'seed', mode: 'random', from: 9, to: 2 ** 31 },
    ]);
    expect([paramsOf(next.workflow).values.seed, paramsOf(next.workflow, 'r').values.seed]).toEqual([6, 2 ** 31]);
    // ComfyUI's seeds go past Atelier's 2^32 - 1: an increment there goes on rather than wrapping.
    const big = nextSeeds(workflow([['f', 'comfy-workflow', flux({}, { seed: 'increment' })]]), registry);
    expect(paramsOf(big.workflow).values.seed).toBe(219670278747234);
  });

  it('inside a component: moves on in the definition, or in the values an instance holds of its own', () => {
    const def = component({
      id: 'flux', name: 'Flux',
      nodes: [{ id: 'f', type: 'comfy-workflow', position: { x: 0, y: 0 }, params: flux({ seed: 5 }, { seed: 'increment' }) as unknown as Record<string, unknown> }],
      edges: [], inputs: [], outputs: [],
      params: [{ name: 'values', label: 'Values', node: 'f', param: 'values' }],
    });
    const own = { ...flux({ seed: 40 }).values };
    const wf = withComponents([def], [['a', 'component:flux'], ['b', 'component:flux'], ['c', 'component:flux', { values: own }]]);
    const next = nextSeeds(wf, registry).workflow;
    expect((next.components![0]!.nodes[0]!.params as unknown as ComfyWorkflowParams).values.seed).toBe(6);
    expect(next.nodes.find((n) => n.id === 'c')!.params.values).toEqual({ ...own, seed: 41 });
    // The record of a run pins the seed it sent, in the definition, and fixes it.
    const pinned = pinSeedsUsed(next, registry, new Map([['a/f', 6]])).components![0]!.nodes[0]!.params as unknown as ComfyWorkflowParams;
    expect([pinned.values.seed, pinned.seed_modes.seed]).toEqual([6, 'fixed']);
  });

  it("pinning an image's seed sets the node's seed and fixes it", () => {
    const def = registry.get('comfy-workflow')!;
    const p = flux({ seed: null }, { seed: 'random' });
    expect(pinSeedPatch(def, p as unknown as Record<string, unknown>, 31, new Set())).toEqual({ values: { ...p.values, seed: 31 }, seed_modes: { seed: 'fixed' } });
  });

  it('as a port: its own seed (and mode) when no wire gives one; a wired seed is the wire\'s and stays out of the modes', async () => {
    const p = flux({ seed: null }, { seed: 'increment' });
    p.fields = p.fields.map((c) => (c.name === 'seed' ? { ...c, as: 'port' as const } : c));
    const { image, requests } = pipelineClient();
    const run = executor(image, [808]);
    await run.run(workflow([['f', 'comfy-workflow', p]]), { mode: 'all' });
    expect(sentSeed(requests[0])).toBe(808);

    const wired = workflow([['n', 'text', { text: '12' }], ['f', 'comfy-workflow', { ...p, values: { ...p.values, seed: 3 } }]], ['n.text -> f.seed']);
    const summary = await run.run(wired, { mode: 'all' });
    expect(summary.failures).toEqual([]);
    expect(sentSeed(requests[1])).toBe(12);
    expect(nextSeeds(wired, registry).changes).toEqual([]);
    expect(pinSeedsUsed(wired, registry, new Map([['f', 12]]))).toBe(wired);
  });

  it('two seeds left random take the drawn seed and the one after it, and are pinned the same way', async () => {
    // SDXL with its refiner: a KSamplerAdvanced each (nodes 10 and 11), each seed a field of its own.
    const base = comfyWorkflowParams(importPipeline({ api: fixtureText('sdxl-refiner', 'api') }), 'sdxl-refiner.json');
    const others = base.fields.filter((c) => !c.targets.some((t) => t.input === 'noise_seed'));
    const p: ComfyWorkflowParams = {
      ...base,
      fields: [...others, { name: 'seed', label: 'Seed', as: 'field', kind: 'number', targets: [{ node: '10', input: 'noise_seed' }] },
        { name: 'refiner_seed', label: 'Refiner seed', as: 'field', kind: 'number', targets: [{ node: '11', input: 'noise_seed' }] }],
      values: { ...base.values, seed: null, refiner_seed: null },
    };
    const { image, requests } = pipelineClient();
    const summary = await executor(image, [100]).run(workflow([['f', 'comfy-workflow', p]]), { mode: 'all' });
    expect(summary.failures).toEqual([]);
    expect(['10', '11'].map((node) => requests[0]!.set.find((s) => s.node === node && s.input === 'noise_seed')?.value)).toEqual([100, 101]);
    const pinned = paramsOf(pinSeedsUsed(workflow([['f', 'comfy-workflow', p]]), registry, new Map([['f', 100]])));
    expect([pinned.values.seed, pinned.values.refiner_seed, pinned.seed_modes]).toEqual([100, 101, { seed: 'fixed', refiner_seed: 'fixed' }]);
  });

  it("a pool's answer names its server: the images carry that label, and it stays out of the cache key", async () => {
    const { image, requests } = pipelineClient('gpu1');
    const run = executor(image);
    const wf = workflow([['f', 'comfy-workflow', flux({ seed: 5 })]]);
    const log = eventLog();
    await run.run(wf, { mode: 'all', onEvent: log.onEvent });
    const done = log.events.find((e) => e.type === 'node-done');
    const images = done?.type === 'node-done' ? Object.values(done.outputs).flatMap((v) => (v?.kind === 'images' ? v.value : [])) : [];
    expect(images.length).toBeGreaterThan(0);
    expect(images.map((i) => i.madeOn)).toEqual(images.map(() => 'gpu1'));
    // Run again: the same inputs come from the cache whichever server made them.
    await run.run(wf, { mode: 'all' });
    expect(requests).toHaveLength(1);
  });
});
