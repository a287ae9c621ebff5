/**
 * The cost estimate on a 500-node graph of the real catalogue (100 chains: text → text to image →
 * image to image → image to image → preview). The editor asks for it before every run and may ask
 * as the graph changes, so it must stay well under a frame budget of interaction: target 50 ms.
 * Measured fresh (nothing cached: keys of the free nodes and their first consumers computed,
 * the rest unknown until upstream runs) and after a run (every key computed, every entry read).
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import type { ChatClient, ImageClient } from '../api/client-types';
import { bytesToBase64 } from '../api/image-data';
import { registry } from '../nodes/index';
import { internalizeImages } from '../assets/inline';
import { createMemoryAssetStore } from '../assets/store';
import type { Workflow } from '../workflow/schema';
import { createMemoryCache } from '../workers/cache';
import { estimateRun } from '../workers/estimate';
import { createExecutor } from '../workers/executor';
import { median, type BenchResult, type Benchmark } from './harness';

const settings = { chatModel: 'm' };

/** A whole JPEG: the executor refuses bytes that are not one, and a refused node is not cached. */
let imageB64 = '';
const image: ImageClient = {
  generate: (_engine, request) => Promise.resolve({ images: [{ image_b64: imageB64, seed: request.seed ?? 1 }] }),
};
const chat: ChatClient = {
  complete: () => Promise.reject(new Error('no chat in this benchmark')),
  stream: () => { throw new Error('no chat in this benchmark'); },
};

export function chains(count: number): Workflow {
  const nodes: Workflow['nodes'] = [];
  const edges: Workflow['edges'] = [];
  const at = (i: number) => ({ x: i, y: 0 });
  for (let c = 0; c < count; c++) {
    nodes.push(
      { id: `p${c}`, type: 'text', position: at(0), params: { text: `a lighthouse number ${c}` } },
      { id: `t${c}`, type: 'text-to-image', position: at(1), params: { seed: c, num_images: 2, sampler: c % 2 ? 'HEUN' : 'DDIM' } },
      { id: `a${c}`, type: 'image-to-image', position: at(2), params: { prompt: 'watercolour', seed: c } },
      { id: `b${c}`, type: 'image-to-image', position: at(3), params: { prompt: 'at night', seed: c } },
      { id: `v${c}`, type: 'preview', position: at(4), params: {} },
    );
    edges.push(
      { id: `e1-${c}`, source: { node: `p${c}`, port: 'text' }, target: { node: `t${c}`, port: 'prompt' } },
      { id: `e2-${c}`, source: { node: `t${c}`, port: 'image' }, target: { node: `a${c}`, port: 'image' } },
      { id: `e3-${c}`, source: { node: `a${c}`, port: 'image' }, target: { node: `b${c}`, port: 'image' } },
      { id: `e4-${c}`, source: { node: `b${c}`, port: 'image' }, target: { node: `v${c}`, port: 'value' } },
    );
  }
  return { format: 'atelier.workflow', version: 1, metadata: { title: 'bench', description: '', created: '', modified: '' }, nodes, edges } as Workflow;
}

/**
 * Ten Image loaders, each with a 4 MB picture, each into an Image to image: as a saved file holds
 * them (base64) and as the editor's document does (asset references, assets/).
 */
async function loaders(): Promise<{ base64: Workflow; refs: Workflow }> {
  const nodes: Workflow['nodes'] = [];
  const edges: Workflow['edges'] = [];
  for (let i = 0; i < 10; i++) {
    const bytes = new Uint8Array(4 * 1024 * 1024).map((_, j) => (j * 31 + i * 7) & 0xff);
    bytes.set([0xff, 0xd8, 0xff, 0xe0]);
    nodes.push(
      { id: `l${i}`, type: 'image-loader', position: { x: 0, y: i }, params: { image: { b64: bytesToBase64(bytes), mime: 'image/jpeg', name: `${i}.jpg` } } },
      { id: `r${i}`, type: 'image-to-image', position: { x: 1, y: i }, params: { prompt: 'watercolour', seed: i } },
    );
    edges.push({ id: `e${i}`, source: { node: `l${i}`, port: 'image' }, target: { node: `r${i}`, port: 'image' } });
  }
  const base64 = { format: 'atelier.workflow', version: 1, metadata: { title: 'bench', description: '', created: '', modified: '' }, nodes, edges } as Workflow;
  return { base64, refs: await internalizeImages(base64, createMemoryAssetStore()) };
}

/** Medians of the wall time and of this process's CPU time (what a loaded machine does not inflate). */
async function sample(times: number, fn: () => Promise<unknown>, warm = 2): Promise<{ wall: number; cpu: number }> {
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < times; i++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await fn();
    walls.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  // The first rounds warm the JIT and the digest memo; the rest are what an editor session sees
  // (it asks for an estimate at every change of the graph).
  return { wall: median(walls.slice(warm)), cpu: median(cpus.slice(warm)) };
}

const bench: Benchmark = {
  name: 'estimate',
  async run(): Promise<BenchResult[]> {
    imageB64 = (await sharp({ create: { width: 32, height: 32, channels: 3, background: '#336699' } }).jpeg().toBuffer()).toString('base64');
    const wf = chains(100);
    const cache = createMemoryCache();
    const deps = { cache, settings, cacheScope: 'bench' };
    const fresh = await sample(24, () => estimateRun(structuredClone(wf), registry, { mode: 'all' }, deps), 12);
    await createExecutor({ registry, api: { image, chat }, settings, cache, cacheScope: 'bench' }).run(wf);
    const cached = await sample(24, () => estimateRun(structuredClone(wf), registry, { mode: 'all' }, deps), 12);
    const check = await estimateRun(wf, registry, { mode: 'all' }, deps);
    const allCached = check.ok && check.totals.cachedNodes === wf.nodes.length;
    const big = await loaders();
    const deps2 = { cache: createMemoryCache(), settings, cacheScope: 'bench' };
    // structuredClone: the copy the page's message to the worker makes of the document.
    const withBase64 = await sample(9, () => estimateRun(structuredClone(big.base64), registry, { mode: 'all' }, deps2));
    const withRefs = await sample(9, () => estimateRun(structuredClone(big.refs), registry, { mode: 'all' }, deps2));
    const cpu = (m: { cpu: number }) => `CPU ${m.cpu.toFixed(1)} ms`;
    return [
      { name: 'estimate, 10 loaders of 4 MB, images as base64 (before: how the document held them)', value: withBase64.wall, unit: 'ms', better: 'lower', note: 'copy to the worker included' },
      { name: 'estimate, 10 loaders of 4 MB, images by reference', value: withRefs.wall, unit: 'ms', better: 'lower', note: 'copy to the worker included' },
      { name: 'estimate, 500 nodes, nothing cached', value: fresh.wall, unit: 'ms', target: 50, better: 'lower', note: `plan and validation included; ${cpu(fresh)}` },
      {
        name: 'estimate, 500 nodes, all cached', value: cached.wall, unit: 'ms', target: 50, better: 'lower',
        note: `${allCached ? '500 keys computed, 500 entries read' : 'NOT all cached: the figure is wrong'}; ${cpu(cached)}`,
      },
    ];
  },
};

export default bench;
