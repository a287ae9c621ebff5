import { describe, expect, it } from 'vitest';
import type { ChatClient, ChatStreamEvent, ImageClient } from '../../api/client-types';
import { registry } from '../../nodes/index';
import { createExecutor } from '../../workers/executor';
import { nodeApi } from '../../workers/node-api';
import { addRunToSession, countChatUsage, emptySessionUsage, emptyUsage, estimateChatTokens } from '../../api/usage';
import { fakeImageB64, testSettings, workflow } from './fakes';

/** Answers with as many images as asked for; fails when the prompt says 'fail'. */
function imageClient(): ImageClient & { calls: number } {
  const client = {
    calls: 0,
    generate(_engine: string, request: { prompt: string; num_images?: number; seed?: number | null }) {
      client.calls++;
      if (request.prompt === 'fail') return Promise.reject(Object.assign(new Error('refused'), { status: 400 }));
      const n = request.num_images ?? 1;
      return Promise.resolve({ images: Array.from({ length: n }, (_, i) => ({ image_b64: fakeImageB64(`${request.prompt}${i}`), seed: (request.seed ?? 0) + i })) });
    },
  };
  return client as ImageClient & { calls: number };
}

/** Streams two words, with `usage` on the last chunk when `usage` is given; `complete` always reports it. */
function chatClient(usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number }): ChatClient {
  return {
    complete: (request) => Promise.resolve({
      id: 'c', object: 'chat.completion', created: 0, model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content: 'done', function_call: null }, delta: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    } as never),
    async *stream(): AsyncGenerator<ChatStreamEvent> {
      await Promise.resolve();
      yield { text: 'a ', finishReason: null };
      yield { text: 'castle', finishReason: 'stop', ...(usage ? { usage } : {}) };
    },
  };
}

function setup(usage?: Parameters<typeof chatClient>[0]) {
  const image = imageClient();
  const executor = createExecutor({ registry, api: { image, chat: chatClient(usage) }, settings: testSettings });
  return { executor, image };
}

const graph = () => workflow(
  [
    ['c', 'chat-prompt-writer'],
    ['regular', 'text-to-image', { seed: 1, num_images: 3, sampler: 'K_EULER' }],
    ['premium', 'text-to-image', { seed: 2, num_images: 2, sampler: 'HEUN' }],
    ['default', 'text-to-image', { prompt: 'x', seed: 3 }],
  ],
  ['c.text -> regular.prompt', 'c.text -> premium.prompt'],
);

describe('run usage', () => {
  it('counts images received, premium ones at twice the price, and the tokens the chat reported', async () => {
    const { executor } = setup({ prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 });
    const summary = await executor.run(graph());
    expect(summary.usage).toEqual({
      imageCalls: 3, chatCalls: 1, images: 6, priceUnits: 3 + 2 * 2 + 1,
      chatTokens: { prompt: 20, completion: 2, total: 22 }, chatCallsWithoutUsage: 0, chatTokensEstimated: { prompt: 0, completion: 0, total: 0 },
      reportedUsd: 0, imageCallsWithCost: 0, billedSeconds: 0,
    });
    expect(summary.apiCalls).toBe(4);
  });

  it('says how many chat calls reported no usage, so the token count reads as a lower bound', async () => {
    const { executor } = setup();
    const summary = await executor.run(graph());
    expect(summary.usage).toMatchObject({ chatCalls: 1, chatTokens: { total: 0 }, chatCallsWithoutUsage: 1 });
    // …and estimates them from the text sent and received, kept apart from reported counts.
    const { prompt, completion, total } = summary.usage.chatTokensEstimated;
    expect(prompt).toBeGreaterThan(0);
    expect(completion).toBeGreaterThan(0);
    expect(total).toBe(prompt + completion);
  });

  it('estimates about four characters a token, and nothing for a call that failed before any text came', () => {
    expect(estimateChatTokens('')).toBe(0);
    expect(estimateChatTokens('a')).toBe(1);
    expect(estimateChatTokens('A lighthouse on a cliff at dusk, waves below.')).toBe(11);
    const usage = emptyUsage();
    countChatUsage(usage, undefined);
    countChatUsage(usage, undefined, { sent: 'x'.repeat(40), received: 'y'.repeat(8) });
    countChatUsage(usage, { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 }, { sent: 'ignored', received: 'ignored' });
    expect(usage).toMatchObject({ chatCallsWithoutUsage: 2, chatTokens: { total: 8 }, chatTokensEstimated: { prompt: 10, completion: 2, total: 12 } });
  });

  it('adds up the money image backends reported, only from answers that reported it in its shape', async () => {
    const costs = new Map<string, unknown>([['p1', { amountUsd: 0.039, reported: true }], ['p3', { amountUsd: 'a lot', reported: true }], ['p4', { amountUsd: 0.134, reported: true, basis: 'tokens' }]]);
    const image: ImageClient = {
      generate: (_engine, request) => Promise.resolve({ images: [{ image_b64: fakeImageB64('x') }], ...(costs.has(request.prompt) ? { cost: costs.get(request.prompt) } : {}) }),
    };
    const executor = createExecutor({ registry, api: { image, chat: chatClient() }, settings: testSettings });
    const summary = await executor.run(workflow([1, 2, 3, 4].map((i) => [`t${i}`, 'text-to-image', { prompt: `p${i}`, seed: i }] as [string, string, Record<string, unknown>])));
    expect(summary.usage.imageCallsWithCost).toBe(2);
    expect(summary.usage.reportedUsd).toBeCloseTo(0.173, 12);
    const session = addRunToSession(emptySessionUsage(), summary);
    expect(session.used.reportedUsd).toBeCloseTo(0.173, 12);
  });

  it('adds up the GPU seconds a time-billed backend reported (billed_seconds), apart from money', async () => {
    const seconds = new Map<string, unknown>([['p1', 2.5], ['p2', 'long'], ['p3', 1.25]]);
    const image: ImageClient = {
      generate: (_engine, request) => Promise.resolve({ images: [{ image_b64: fakeImageB64('x') }], ...(seconds.has(request.prompt) ? { billed_seconds: seconds.get(request.prompt) } : {}) }),
    };
    const executor = createExecutor({ registry, api: { image, chat: chatClient() }, settings: testSettings });
    const summary = await executor.run(workflow([1, 2, 3].map((i) => [`t${i}`, 'text-to-image', { prompt: `p${i}`, seed: i }] as [string, string, Record<string, unknown>])));
    expect(summary.usage.billedSeconds).toBe(3.75);
    expect(summary.usage.imageCallsWithCost).toBe(0);
    expect(addRunToSession(emptySessionUsage(), summary).used.billedSeconds).toBe(3.75);
  });

  it('counts a failed request as a call that made no images', async () => {
    const { executor } = setup();
    const summary = await executor.run(workflow([['t', 'text-to-image', { prompt: 'fail', seed: 1, num_images: 4 }]]));
    expect(summary.status).toBe('failed');
    expect(summary.usage).toMatchObject({ imageCalls: 1, images: 0, priceUnits: 0 });
  });

  it('a cached re-run uses nothing and says what the cache saved', async () => {
    const { executor, image } = setup({ prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 });
    const first = await executor.run(graph());
    const second = await executor.run(graph());
    expect(image.calls).toBe(3);
    expect(second.usage).toEqual(emptyUsage());
    expect(second.apiCallsSaved).toBe(4);
    expect(second.usageSaved).toEqual(first.usage);
  });

  it('a cancelled run counts the chat text that streamed before the cancel, as an estimate', async () => {
    const partial = 'a lighthouse on a cliff at dusk, waves below';
    // Streams some text, then waits for more until the request is aborted, as a slow service does.
    const chat: ChatClient = {
      ...chatClient(),
      async *stream(_request, options): AsyncGenerator<ChatStreamEvent> {
        yield { text: partial, finishReason: null };
        await new Promise((_resolve, reject) => options?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      },
    };
    const executor = createExecutor({ registry, api: { image: imageClient(), chat }, settings: testSettings });
    const summary = await executor.run(workflow([['c', 'chat-prompt-writer', { user: 'a lighthouse' }]]), {
      mode: 'all',
      onEvent: (event) => {
        if (event.type === 'node-partial-text') executor.cancel();
      },
    });
    expect(summary.problems).toEqual([]);
    expect(summary.status).toBe('cancelled');
    expect(summary.usage).toMatchObject({ chatCalls: 1, chatCallsWithoutUsage: 1 });
    expect(summary.usage.chatTokensEstimated.completion).toBe(estimateChatTokens(partial));
    expect(summary.usage.chatTokensEstimated.prompt).toBeGreaterThan(0);
  });

  it('adds runs up per session without changing the totals it was given', async () => {
    const { executor } = setup({ prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 });
    const start = emptySessionUsage();
    const one = addRunToSession(start, await executor.run(graph()));
    const two = addRunToSession(one, await executor.run(graph()));
    expect(start).toEqual(emptySessionUsage());
    expect(two).toMatchObject({ runs: 2, apiCallsSaved: 4, used: { images: 6, priceUnits: 8, chatTokens: { total: 22 } }, saved: { images: 6, priceUnits: 8 } });
    expect(one.used).not.toBe(two.used);
  });
});

describe('nodeApi usage hooks', () => {
  it('reports the usage of a whole completion, and a failed one as a call without usage', async () => {
    const ended: unknown[] = [];
    const hooks = { onCall: () => undefined, onRetry: () => undefined, onChatEnd: (u: unknown) => void ended.push(u) };
    const api = nodeApi({ image: imageClient(), chat: chatClient() }, new AbortController().signal, hooks);
    await api.chat.complete({ model: 'm', messages: [] });
    const failing = nodeApi({ image: imageClient(), chat: { ...chatClient(), complete: () => Promise.reject(new Error('down')) } }, new AbortController().signal, hooks);
    await expect(failing.chat.complete({ model: 'm', messages: [] })).rejects.toThrow('down');
    expect(ended).toEqual([{ prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 }, undefined]);
  });

  it('reports a stream the node stopped reading early, once', async () => {
    const ended: unknown[] = [];
    const api = nodeApi({ image: imageClient(), chat: chatClient() }, new AbortController().signal, {
      onCall: () => undefined, onRetry: () => undefined, onChatEnd: (u) => void ended.push(u),
    });
    for await (const event of api.chat.stream({ model: 'm', messages: [] })) if (event.text !== '') break;
    expect(ended).toEqual([undefined]);
  });
});
