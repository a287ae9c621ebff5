/**
 * The executor's own cost, with fake API clients so only the executor is measured: overhead per
 * node on a 500-node graph (zero-latency API), eight independent branches against a 200 ms API
 * (wall time should be the critical path, not the sum), a fully cached re-run of 50 nodes, and
 * the cost of keying a 4 MB image.
 */
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import type { ChatClient, ImageClient } from '../api/client-types';
import type { AnyNodeDefinition, NodeDefinition } from '../nodes/types';
import type { Workflow } from '../workflow/schema';
import { createMemoryCache } from '../workers/cache';
import { createExecutor } from '../workers/executor';
import { nodeCacheKey } from '../workers/hash';
import { median, type BenchResult, type Benchmark } from './harness';

const LATENCY_MS = 200;
const BRANCHES = 8;

/** A small JPEG-sized stand-in (2 KB of base64): big images are measured separately below. */
const IMAGE_B64 = `/9j/${'A'.repeat(2044)}`;

function fakeImageClient(latencyMs: number) {
  let calls = 0;
  const client: ImageClient = {
    async generate(_engine, request) {
      calls++;
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
      return { images: [{ image_b64: IMAGE_B64, seed: request.seed ?? 1 }] };
    },
  };
  return { client, get calls() { return calls; } };
}

const unusedChat: ChatClient = {
  complete: () => Promise.reject(new Error('no chat in this benchmark')),
  stream: () => { throw new Error('no chat in this benchmark'); },
};

const promptNode: NodeDefinition<{ text: string }> = {
  type: 'prompt', version: 1, title: 'Prompt', category: 'text', description: 'Text.',
  params: z.strictObject({ text: z.string().default('a lighthouse') }),
  inputs: [],
  outputs: [{ name: 'text', kind: 'text', label: 'Text' }],
  run: ({ params }) => Promise.resolve({ text: { kind: 'text', value: params.text } }),
};

/** Calls the image API once, from a prompt and (optionally) an image, like the real image nodes. */
const drawNode: NodeDefinition<{ prompt: string; seed: number; steps: number }> = {
  type: 'draw', version: 1, title: 'Draw', category: 'image', description: 'Calls the image API.',
  params: z.strictObject({ prompt: z.string().default('x'), seed: z.number().int().default(1), steps: z.number().int().min(1).max(150).default(30) }),
  inputs: [
    { name: 'prompt', kind: 'text', label: 'Prompt', optional: true, param: 'prompt' },
    { name: 'image', kind: 'image', label: 'Image', optional: true },
  ],
  outputs: [{ name: 'image', kind: 'image', label: 'Image' }],
  async run({ params, inputs, ctx }) {
    const init = inputs.image?.kind === 'image' ? inputs.image.value.b64 : undefined;
    const res = await ctx.api.image.generate('sdxl', { prompt: params.prompt, seed: params.seed, steps: params.steps, ...(init ? { init_image: init } : {}) }, { signal: ctx.signal });
    ctx.progress(1);
    return { image: { kind: 'image', value: { b64: res.images[0]!.image_b64, mime: 'image/jpeg', seed: params.seed } } };
  },
};

const defs: readonly AnyNodeDefinition[] = [promptNode, drawNode];
const registry = { get: (type: string) => defs.find((d) => d.type === type) };

/** `chains` chains, each a prompt followed by `length - 1` draw nodes passing the image on. */
function chainsWorkflow(chains: number, length: number): Workflow {
  const nodes: Workflow['nodes'] = [];
  const edges: Workflow['edges'] = [];
  for (let c = 0; c < chains; c++) {
    nodes.push({ id: `p${c}`, type: 'prompt', position: { x: 0, y: c }, params: { text: `subject ${c}` } });
    for (let i = 1; i < length; i++) {
      const id = `d${c}-${i}`;
      nodes.push({ id, type: 'draw', position: { x: i, y: c }, params: { seed: c * 100 + i } });
      const prev = i === 1 ? `p${c}` : `d${c}-${i - 1}`;
      edges.push(i === 1
        ? { id: `e${id}`, source: { node: prev, port: 'text' }, target: { node: id, port: 'prompt' } }
        : { id: `e${id}`, source: { node: prev, port: 'image' }, target: { node: id, port: 'image' } });
    }
  }
  return { format: 'atelier.workflow', version: 1, metadata: { title: 'bench', description: '', created: '', modified: '' }, nodes, edges } as Workflow;
}

function executorWith(latencyMs: number, concurrency: number) {
  const image = fakeImageClient(latencyMs);
  const executor = createExecutor({ registry, api: { image: image.client, chat: unusedChat }, settings: { chatModel: 'm' }, concurrency, cache: createMemoryCache() });
  return { executor, image };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function overheadPerNode(): Promise<BenchResult> {
  const wf = chainsWorkflow(50, 10);
  const samples: number[] = [];
  for (let i = 0; i < 7; i++) {
    // A fresh cache each time: every node runs, keys are computed and results stored.
    const { executor } = executorWith(0, 4);
    let events = 0;
    const ms = await timed(() => executor.run(wf, { mode: 'all', onEvent: () => void events++ }));
    if (i > 1) samples.push(ms / wf.nodes.length);
  }
  return { name: 'overhead per node, 500-node graph, zero-latency API', value: median(samples), unit: 'ms/node', target: 0.5, better: 'lower', note: 'plan, validation, hashing, caching and events included; concurrency 4' };
}

async function parallelBranches(): Promise<BenchResult> {
  const wf = chainsWorkflow(BRANCHES, 2);
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    const { executor } = executorWith(LATENCY_MS, BRANCHES);
    samples.push(await timed(() => executor.run(wf)));
  }
  // 1.05 × the critical path, plus the per-node overhead budget for its nodes.
  const target = 1.05 * LATENCY_MS + 0.5 * wf.nodes.length;
  return { name: `${BRANCHES} independent branches, ${LATENCY_MS} ms API`, value: median(samples), unit: 'ms', target, better: 'lower', note: `wall time with concurrency ${BRANCHES}; the sum would be ${BRANCHES * LATENCY_MS} ms` };
}

async function cachedRerun(): Promise<BenchResult[]> {
  const wf = chainsWorkflow(5, 10);
  const { executor, image } = executorWith(0, 4);
  await executor.run(wf);
  const before = image.calls;
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) samples.push(await timed(() => executor.run(structuredClone(wf))));
  return [
    { name: 'fully cached re-run, 50 nodes', value: median(samples), unit: 'ms', target: 20, better: 'lower' },
    { name: 'API calls in the cached re-runs', value: image.calls - before, unit: 'calls', target: 0, better: 'lower' },
  ];
}

async function bigImageKey(): Promise<BenchResult[]> {
  const b64 = `/9j/${'x'.repeat(4 * 1024 * 1024 - 4)}`;
  const def = { type: 'draw', version: 1 };
  const value = { kind: 'image' as const, value: { b64, mime: 'image/jpeg' } };
  const first = await timed(() => nodeCacheKey(def, { seed: 1 }, { image: value }));
  const again: number[] = [];
  for (let i = 0; i < 10; i++) again.push(await timed(() => nodeCacheKey(def, { seed: i }, { image: value })));
  return [
    { name: 'cache key with a 4 MB base64 image, first time', value: first, unit: 'ms', better: 'lower', note: 'SHA-256 of the string through crypto.subtle' },
    { name: 'cache key with the same image object again', value: median(again), unit: 'ms', better: 'lower', note: 'digest remembered per image object' },
  ];
}

const bench: Benchmark = {
  name: 'executor',
  async run() {
    return [await overheadPerNode(), await parallelBranches(), ...(await cachedRerun()), ...(await bigImageKey())];
  },
};

export default bench;
