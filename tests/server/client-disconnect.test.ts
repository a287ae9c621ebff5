/**
 * Contract: when a client goes away, the engine work for it stops (AbortSignal), rather than
 * running on for nobody. In-process, so the engines' calls can be watched.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAtelierServer, type AtelierServer } from '../../server/app';
import { localEnginesConfig } from '../../server/config';
import { silentLogger } from '../../server/log';
import type * as ImageEngine from '../../server/engines/image';
import type * as TextEngine from '../../server/engines/text';

const watched = vi.hoisted(() => ({
  images: [] as { signal: AbortSignal | undefined; outcome: Promise<'resolved' | 'rejected'> }[],
  streams: [] as { signal: AbortSignal | undefined; chunks: number; ended: Promise<void> }[],
}));

vi.mock('../../server/engines/image', async (importOriginal) => {
  const real = await importOriginal<typeof ImageEngine>();
  return {
    ...real,
    generateImages: (...args: Parameters<typeof real.generateImages>) => {
      const run = real.generateImages(...args);
      watched.images.push({ signal: args[1]?.signal, outcome: run.then(() => 'resolved' as const, () => 'rejected' as const) });
      return run;
    },
  };
});

vi.mock('../../server/engines/text', async (importOriginal) => {
  const real = await importOriginal<typeof TextEngine>();
  return {
    ...real,
    streamChatCompletion: (...args: Parameters<typeof real.streamChatCompletion>) => {
      let ended: () => void = () => undefined;
      const entry = { signal: args[1].signal, chunks: 0, ended: new Promise<void>((r) => (ended = r)) };
      watched.streams.push(entry);
      const inner = real.streamChatCompletion(...args);
      return (async function* () {
        try {
          for await (const chunk of inner) {
            entry.chunks++;
            yield chunk;
          }
        } finally {
          ended();
        }
      })();
    },
  };
});

let server: AtelierServer;

beforeAll(async () => {
  server = await createAtelierServer(localEnginesConfig({ stepDelayMs: 30, tokenDelayMs: 20 }), { logger: silentLogger });
});
afterAll(async () => {
  await server.close();
});

describe('client disconnect', () => {
  it('aborts an image generation in progress', async () => {
    const controller = new AbortController();
    // 150 steps at 30 ms each would take 4.5 s; the client leaves after a moment.
    const request = fetch(`${server.url}/local/image/generate/sdxl`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ prompt: 'a slow picture', steps: 150 }),
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(watched.images).toHaveLength(1));
    controller.abort();
    await expect(request).rejects.toThrow();
    const run = watched.images[0]!;
    expect(await run.outcome).toBe('rejected');
    expect(run.signal?.aborted).toBe(true);
  });

  it('stops a chat stream at once', async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/local/text/v1/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: (await import('../../server/engines/text')).LOCAL_CHAT_MODELS[0], stream: true, max_tokens: 2000, messages: [{ role: 'user', content: 'a very long prompt about a forest' }] }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    const stream = watched.streams[0]!;
    await stream.ended;
    expect(stream.signal?.aborted).toBe(true);
    expect(stream.chunks).toBeLessThan(50);
  });

  it('keeps serving afterwards', async () => {
    const res = await fetch(`${server.url}/api/info`);
    expect(res.status).toBe(200);
  });
});
