/**
 * A pool of servers (api/backends/pool/): what placing one request costs. Every request of a
 * fan-out or batch asks `place` once, among every server, each holding a few hundred model names
 * and node classes, so the choice must stay small beside a request: target 0.1 ms per request with
 * 16 servers (100 µs), the bookkeeping of starting and ending the request included. And the
 * whole: a 64-item fan-out over four ComfyUI doubles, each its own process taking a fixed T per
 * image, should finish in about (64 / 4) × T, one server's fair share: target ≤ 1.1 × that.
 */
import { performance } from 'node:perf_hooks';
import { place, type PlacementNeeds } from '../api/backends/pool/placement';
import { createPoolState } from '../api/backends/pool/state';
import WebSocket from 'ws';
import { createBackend } from '../api/backends/index';
import type { PoolBackend } from '../api/backends/pool/index';
import type { ImageBackend } from '../api/backends/types';
import { startComfyDoubleProcess, type ComfyDoubleProcess } from '../tests/helpers/doubles/comfyui-process';
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

const FAN_OUT = 64;
const DOUBLES = 4;
/** A GPU's time per image, a timer in each double (sleeping, not computing), as a small SDXL image takes. */
const MS_PER_IMAGE = 300;
const FAN_OUT_ROUNDS = 3;

const WS = WebSocket as unknown as typeof globalThis.WebSocket;
const CHECKPOINT = { checkpoint: 'sd_xl_base_1.0.safetensors' };

/**
 * Median milliseconds of `items` concurrent requests over `servers` ComfyUI doubles (a pool when
 * more than one), after one warm-up round, and how many prompts each double ran. Each double runs
 * in its own process, as each GPU server is its own machine: their HTTP and image work does not
 * share this process's thread, so what is left here is the client's and the pool's own cost.
 */
async function fanOutMs(servers: number, items: number): Promise<{ wall: number; cpu: number; perServer: number[] }> {
  const doubles: ComfyDoubleProcess[] = [];
  let pool: ImageBackend | undefined;
  try {
    doubles.push(...await Promise.all(Array.from({ length: servers }, () => startComfyDoubleProcess({ msPerImage: MS_PER_IMAGE }))));
    const baseUrls = servers > 1 ? { baseUrls: doubles.map((d, i) => ({ label: `gpu${i + 1}`, url: d.url })) } : {};
    pool = await createBackend({ config: { kind: 'comfyui', baseUrl: doubles[0]!.url, ...baseUrls, names: CHECKPOINT } }, { WebSocket: WS, retry: { maxAttempts: 1 } });
    const samples: number[] = [];
    const cpu: number[] = [];
    for (let round = 0; round <= FAN_OUT_ROUNDS; round++) {
      const start = performance.now();
      const used = process.cpuUsage();
      await Promise.all(Array.from({ length: items }, (_, i) => pool!.generate('sdxl', { prompt: `item ${i}`, steps: 2, width: 64, height: 64, seed: round * items + i + 1 })));
      if (round > 0) {
        samples.push(performance.now() - start);
        const { user, system } = process.cpuUsage(used);
        cpu.push((user + system) / 1000);
      }
    }
    const perServer = (await Promise.all(doubles.map((d) => d.counts()))).map((c) => c.prompts);
    return { wall: median(samples), cpu: median(cpu), perServer };
  } finally {
    (pool as PoolBackend | undefined)?.close?.();
    await Promise.all(doubles.map((d) => d.close()));
  }
}

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
      samples.push((performance.now() - start) * 1000 / REQUESTS);
    }
    const fanOut = await fanOutMs(DOUBLES, FAN_OUT);
    const share = FAN_OUT / DOUBLES;
    const alone = await fanOutMs(1, share);
    return [
      { name: `placement per request, ${SERVERS} servers`, value: median(samples), unit: 'µs', target: 100, better: 'lower', note: `median of ${ROUNDS} rounds of ${REQUESTS} requests; one server down, one lacking a LoRA` },
      {
        name: `${FAN_OUT}-item fan-out over ${DOUBLES} ComfyUI doubles, finish ÷ (${FAN_OUT}/${DOUBLES} × ${MS_PER_IMAGE} ms)`,
        value: fanOut.wall / (share * MS_PER_IMAGE), unit: '×', target: 1.1, better: 'lower',
        note: `median of ${FAN_OUT_ROUNDS} rounds after a warm-up; each double its own process, ${MS_PER_IMAGE} ms per image (a timer), one run at a time; prompts per double over all rounds ${fanOut.perServer.join(', ')}; the client's CPU ${Math.round(fanOut.cpu)} ms of ${Math.round(fanOut.wall)} ms`,
      },
      {
        name: `the same fan-out ÷ one double alone running its share of ${share}`,
        value: fanOut.wall / alone.wall, unit: '×', better: 'lower',
        note: `the pool's own cost beside the doubles' (${Math.round(alone.wall)} ms alone, CPU ${Math.round(alone.cpu)} ms)`,
      },
    ];
  },
};

export default bench;
