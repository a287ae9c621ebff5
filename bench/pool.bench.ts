/**
 * A pool of servers (api/backends/pool/): what placing one request costs. Every request of a
 * fan-out or batch asks `place` once, among every server, each holding a few hundred model names
 * and node classes, so the choice must stay small beside a request: target 0.1 ms per request with
 * 16 servers, the bookkeeping of starting and ending the request included.
 */
import { performance } from 'node:perf_hooks';
import { place, type PlacementNeeds } from '../api/backends/pool/placement';
import { createPoolState } from '../api/backends/pool/state';
import { median, type BenchResult, type Benchmark } from './harness';

const SERVERS = 16;
const REQUESTS = 1_000;
const ROUNDS = 15;

const names = (prefix: string, n: number): Set<string> => new Set(Array.from({ length: n }, (_, i) => `${prefix}-${i}.safetensors`));

function pool() {
  let t = 0;
  const state = createPoolState(Array.from({ length: SERVERS }, (_, i) => `gpu-${i}`), () => t);
  for (let id = 0; id < SERVERS; id++) {
    state.holds(id, { checkpoints: names('ckpt', 200), loras: names('lora', 400), controlnets: names('cn', 40), nodeClasses: names('Node', 600) });
    state.queued(id, id % 3);
  }
  // One server down and one without the LoRA: placement must look past both every time.
  state.down(3);
  state.holds(5, { checkpoints: names('ckpt', 200), loras: new Set(), controlnets: names('cn', 40), nodeClasses: names('Node', 600) });
  return { state, tick: () => (t += 1) };
}

const needs: PlacementNeeds = {
  checkpoints: ['ckpt-150.safetensors'],
  loras: ['lora-7.safetensors', 'lora-321.safetensors'],
  controlnets: ['cn-3.safetensors'],
  nodeClasses: Array.from({ length: 12 }, (_, i) => `Node-${i * 40}.safetensors`),
};

const bench: Benchmark = {
  name: 'pool',
  async run(): Promise<BenchResult[]> {
    const { state, tick } = pool();
    const samples: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const held: number[] = [];
      const start = performance.now();
      for (let i = 0; i < REQUESTS; i++) {
        const placement = place(state.views(), needs);
        if (!placement.ok) throw new Error(placement.reason);
        state.started(placement.server.id);
        held.push(placement.server.id);
        // Requests end as others start, as in a running fan-out, so in-flight counts move.
        if (held.length > SERVERS * 2) state.ended(held.shift()!, { images: 1, ms: 200 + (i % 7) * 10 });
        tick();
      }
      for (const id of held) state.ended(id);
      samples.push((performance.now() - start) / REQUESTS);
    }
    await Promise.resolve();
    return [
      { name: `placement per request, ${SERVERS} servers`, value: median(samples), unit: 'ms', target: 0.1, better: 'lower', note: `median of ${ROUNDS} rounds of ${REQUESTS} requests; one server down, one lacking a LoRA` },
    ];
  },
};

export default bench;
