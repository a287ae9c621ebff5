/**
 * The local server over real HTTP (started in this process): SDXL 1024x1024 request latency and
 * throughput with no simulated latency, and how soon the first streamed chat chunk arrives.
 */
import { performance } from 'node:perf_hooks';
import { createAtelierServer } from '../server/app';
import { DEFAULTS, localEnginesConfig } from '../server/config';
import { LOCAL_CHAT_MODELS } from '../server/engines/text';
import { silentLogger } from '../server/log';
import { median, type BenchResult, type Benchmark } from './harness';

const LATENCY_SAMPLES = 20;
const CONCURRENCY = 8;
const THROUGHPUT_ROUNDS = 3;
const CHUNK_SAMPLES = 20;

async function generate(url: string, seed: number): Promise<void> {
  const res = await fetch(`${url}/local/image/generate/sdxl`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ prompt: 'a lighthouse on a cliff at dusk, dramatic sky', width: 1024, height: 1024, seed }),
  });
  if (res.status !== 200) throw new Error(`generate failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { images: { image_b64: string }[] };
  if (body.images.length !== 1) throw new Error('expected one image');
}

/** Milliseconds from sending a streamed chat request to holding its first `data:` event. */
async function firstChunk(url: string, model: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/local/text/v1/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: 'Write an image prompt about a cabin in the snow.' }] }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('\n\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended before its first event');
    text += decoder.decode(value, { stream: true });
  }
  const elapsed = performance.now() - started;
  if (!text.startsWith('data: {')) throw new Error(`unexpected first event: ${text.slice(0, 80)}`);
  await reader.cancel();
  return elapsed;
}

const bench: Benchmark = {
  name: 'server',
  async run(): Promise<BenchResult[]> {
    // No simulated latency for images; chat keeps the `npm start` default pacing, which must not
    // hold back the first chunk.
    const config = localEnginesConfig({ tokenDelayMs: DEFAULTS.tokenDelayMs });
    const server = await createAtelierServer(config, { logger: silentLogger });
    try {
      for (let i = 0; i < 3; i++) await generate(server.url, 1000 + i);

      const latencies: number[] = [];
      for (let i = 0; i < LATENCY_SAMPLES; i++) {
        const started = performance.now();
        await generate(server.url, i);
        latencies.push(performance.now() - started);
      }

      const rates: number[] = [];
      for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
        const started = performance.now();
        await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => generate(server.url, 500 + round * CONCURRENCY + i)));
        rates.push(CONCURRENCY / ((performance.now() - started) / 1000));
      }

      const model = LOCAL_CHAT_MODELS[0]!;
      await firstChunk(server.url, model);
      const chunks: number[] = [];
      for (let i = 0; i < CHUNK_SAMPLES; i++) chunks.push(await firstChunk(server.url, model));

      return [
        { name: 'SDXL 1024x1024 request latency (median)', value: median(latencies), unit: 'ms', target: 60, better: 'lower', note: `${LATENCY_SAMPLES} sequential requests over HTTP, 30 steps, no simulated latency` },
        { name: `throughput, ${CONCURRENCY} concurrent SDXL 1024x1024 requests`, value: median(rates), unit: 'images/s', better: 'higher', note: `median of ${THROUGHPUT_ROUNDS} rounds` },
        { name: 'first streamed chat chunk (median)', value: median(chunks), unit: 'ms', target: 20, better: 'lower', note: `${CHUNK_SAMPLES} requests, ${config.tokenDelayMs} ms/token pacing` },
      ];
    } finally {
      await server.close();
    }
  },
};

export default bench;
