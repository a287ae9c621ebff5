/**
 * The local chat engine on its own, without HTTP: how soon the first streamed chunk is ready,
 * how long a ~200-token streamed answer takes with no simulated latency, and a plain completion.
 */
import { type ChatRequest } from '../api/chat';
import { createChatCompletion, streamChatCompletion } from '../server/engines/text';
import { median, type Benchmark, type BenchResult } from './harness';

const RUNS = 200;

const prompt: ChatRequest = {
  model: 'atelier-local-chat',
  messages: [
    { role: 'system', content: 'You write prompts for an image model' },
    { role: 'user', content: 'a cozy cabin in the snowy woods at dusk' },
  ],
};

/** Asks for more text than 200 tokens, so max_tokens cuts it at exactly 200. */
const long: ChatRequest = {
  model: 'atelier-local-chat',
  messages: [{ role: 'user', content: 'Write five detailed image prompts for a cozy cabin in the snowy woods at dusk' }],
  max_tokens: 200,
};

async function streamOnce(req: ChatRequest): Promise<{ first: number; firstText: number; total: number; chunks: number }> {
  const start = performance.now();
  let first = 0;
  let firstText = 0;
  let chunks = 0;
  for await (const _ of streamChatCompletion(req, { tokenDelayMs: 0 })) {
    if (chunks === 0) first = performance.now() - start;
    if (chunks === 1) firstText = performance.now() - start;
    chunks += 1;
  }
  return { first, firstText, total: performance.now() - start, chunks };
}

const bench: Benchmark = {
  name: 'chat-engine',
  async run(): Promise<BenchResult[]> {
    for (let i = 0; i < 20; i++) await streamOnce(long);
    const firsts: number[] = [];
    const firstTexts: number[] = [];
    const totals: number[] = [];
    let chunks = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = await streamOnce({ ...long, temperature: i % 2 ? 1 : 0 });
      firsts.push(r.first);
      firstTexts.push(r.firstText);
      totals.push(r.total);
      chunks = r.chunks;
    }
    const plain: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      createChatCompletion(prompt);
      plain.push(performance.now() - start);
    }
    return [
      { name: 'first streamed chunk (engine only)', value: median(firsts), unit: 'ms', target: 20, better: 'lower', note: `median of ${RUNS}` },
      { name: 'first text chunk (the answer is composed before it)', value: median(firstTexts), unit: 'ms', better: 'lower', note: `median of ${RUNS}` },
      { name: `full ${chunks - 1}-token stream, no token delay`, value: median(totals), unit: 'ms', better: 'lower', note: `median of ${RUNS}` },
      { name: 'cabin prompt completion (non-streaming)', value: median(plain), unit: 'ms', better: 'lower', note: `median of ${RUNS}` },
    ];
  },
};

export default bench;
