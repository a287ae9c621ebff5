/**
 * Fan-out on the real catalogue: Text (N lines) → Split text → Text to image → Preview, with a
 * fake image API. A 64-item fan-out against a 200 ms API with concurrency 8 should take the
 * eight rounds it needs and little more (target 1.1 × 8 × 200 ms); planning it (splitting, each
 * item's parameters checked and keyed, the cache asked per item, as the estimate and the
 * executor both do) should add at most 5 ms over a list of one.
 */
import { performance } from 'node:perf_hooks';
import type { ChatClient, ImageClient } from '../api/client-types';
import { registry } from '../nodes/index';
import type { Workflow } from '../workflow/schema';
import { createMemoryCache } from '../workers/cache';
import { estimateRun } from '../workers/estimate';
import { createExecutor } from '../workers/executor';
import { median, type BenchResult, type Benchmark } from './harness';

const ITEMS = 64;
const LATENCY_MS = 200;
const CONCURRENCY = 8;
const IMAGE_B64 = `/9j/${'A'.repeat(2044)}`;
const settings = { chatModel: 'm' };

function imageClient(latencyMs: number): ImageClient & { calls: number } {
  const client = {
    calls: 0,
    async generate(_engine: string, request: { seed?: number | null }) {
      client.calls++;
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
      return { images: [{ image_b64: IMAGE_B64, seed: request.seed ?? 1 }] };
    },
  };
  return client;
}

const chat: ChatClient = {
  complete: () => Promise.reject(new Error('no chat in this benchmark')),
  stream: () => { throw new Error('no chat in this benchmark'); },
};

/** `items` lines; `edit` changes one of them, as a person editing the list does between two estimates. */
function fanOut(items: number, edit = -1): Workflow {
  const lines = Array.from({ length: items }, (_, i) => `a lighthouse on a cliff, variation ${i}${i === edit % items ? ` (edit ${edit})` : ''}`).join('\n');
  return {
    format: 'atelier.workflow', version: 1, metadata: { title: 'bench', description: '', created: '', modified: '' },
    nodes: [
      { id: 'list', type: 'text', position: { x: 0, y: 0 }, params: { text: lines } },
      { id: 'split', type: 'split-text', position: { x: 1, y: 0 }, params: {} },
      { id: 'draw', type: 'text-to-image', position: { x: 2, y: 0 }, params: { seed: 7, steps: 20 } },
      { id: 'show', type: 'preview', position: { x: 3, y: 0 }, params: {} },
    ],
    edges: [
      { id: 'a', source: { node: 'list', port: 'text' }, target: { node: 'split', port: 'text' } },
      { id: 'b', source: { node: 'split', port: 'items' }, target: { node: 'draw', port: 'prompt' } },
      { id: 'c', source: { node: 'draw', port: 'image' }, target: { node: 'show', port: 'value' } },
    ],
  } as Workflow;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function wallTime(): Promise<BenchResult[]> {
  const wf = fanOut(ITEMS);
  const samples: number[] = [];
  let calls = 0;
  for (let i = 0; i < 3; i++) {
    const image = imageClient(LATENCY_MS);
    const executor = createExecutor({ registry, api: { image, chat }, settings, concurrency: CONCURRENCY, cache: createMemoryCache() });
    samples.push(await timed(() => executor.run(wf)));
    calls = image.calls;
  }
  const rounds = Math.ceil(ITEMS / CONCURRENCY);
  return [
    {
      name: `fan-out of ${ITEMS} items, ${LATENCY_MS} ms API, concurrency ${CONCURRENCY}`, value: median(samples), unit: 'ms',
      target: Math.round(1.1 * rounds * LATENCY_MS), better: 'lower', note: `${rounds} rounds of ${CONCURRENCY}; one at a time would take ${ITEMS * LATENCY_MS} ms`,
    },
    { name: `API calls in a ${ITEMS}-item fan-out`, value: calls, unit: 'calls', target: ITEMS, better: 'lower' },
  ];
}

/**
 * The estimate of a fan-out of `items`, as the editor asks for it while a person edits the list:
 * warmed up, then one line changed before each sample (that item is checked and keyed afresh,
 * the others come from the per-node memo).
 */
async function estimateTime(items: number): Promise<number> {
  const cache = createMemoryCache();
  const samples: number[] = [];
  for (let i = 0; i < 40; i++) {
    const wf = fanOut(items, i);
    const ms = await timed(() => estimateRun(wf, registry, { mode: 'all' }, { cache, settings }));
    if (i >= 20) samples.push(ms);
  }
  return median(samples);
}

async function planning(): Promise<BenchResult[]> {
  const one = await estimateTime(1);
  const many = await estimateTime(ITEMS);
  // The executor with an API that answers at once: what the fan-out costs per item, run and cached.
  const image = imageClient(0);
  const executor = createExecutor({ registry, api: { image, chat }, settings, concurrency: CONCURRENCY, cache: createMemoryCache() });
  const wf = fanOut(ITEMS);
  await executor.run(wf);
  const cached: number[] = [];
  for (let i = 0; i < 7; i++) cached.push(await timed(() => executor.run(structuredClone(wf))));
  return [
    {
      name: `planning a ${ITEMS}-item fan-out (estimate, over a list of one)`, value: many - one, unit: 'ms', target: 5, better: 'lower',
      note: `estimate ${Math.round(many * 100) / 100} ms against ${Math.round(one * 100) / 100} ms, one line edited before each: split, each item checked, keyed and looked up`,
    },
    { name: `re-run of a ${ITEMS}-item fan-out, every item cached`, value: median(cached), unit: 'ms', better: 'lower', note: 'no requests; plan, keys, cache reads and events' },
  ];
}

const bench: Benchmark = {
  name: 'fan-out',
  async run() {
    return [...(await wallTime()), ...(await planning())];
  },
};

export default bench;
