/** The streamed chunks of the local chat engine (docs/service-interface.md 2.9), their pacing and abort. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ChatChunk, ChatChunkSchema } from '../../api/chat';
import { createChatCompletion, streamChatCompletion, tokenize } from '../../server/engines/text';
import { CABIN, PROMPT_WRITER, request, system, user } from './text-helpers';

const cabin = [system(PROMPT_WRITER), user(CABIN)];

async function collect(extra: Parameters<typeof request>[1] = {}, tokenDelayMs = 0, signal?: AbortSignal): Promise<ChatChunk[]> {
  const chunks: ChatChunk[] = [];
  for await (const chunk of streamChatCompletion(request(cabin, { stream: true, ...extra }), { tokenDelayMs, signal })) chunks.push(chunk);
  return chunks;
}

const contentOf = (chunks: readonly ChatChunk[]) => chunks.slice(1).map((c) => c.choices[0]!.delta.content).join('');

describe('chunk sequence', () => {
  it('sends a role-only first chunk, one chunk per token, and the finish reason on the last', async () => {
    const chunks = await collect();
    const [first, ...rest] = chunks;
    for (const c of chunks) expect(ChatChunkSchema.safeParse(c).success).toBe(true);
    expect(first!.choices).toEqual([{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }]);
    rest.forEach((c, i) => {
      const last = i === rest.length - 1;
      expect(c.object).toBe('chat.completion.chunk');
      expect(c.choices).toHaveLength(1);
      expect(Object.keys(c.choices[0]!.delta)).toEqual(['role', 'content']);
      expect(c.choices[0]!.delta.role).toBe('assistant');
      expect(typeof c.choices[0]!.delta.content).toBe('string');
      expect(c.choices[0]!.finish_reason).toBe(last ? 'stop' : null);
    });
    const { id, created, model } = first!;
    expect(id).toMatch(/^chatcmpl-/);
    expect(model).toBe('atelier-local-chat');
    for (const c of chunks) expect([c.id, c.created, c.model]).toEqual([id, created, model]);
  });

  it('joins to exactly the non-streamed answer at temperature 0, one token per chunk', async () => {
    const chunks = await collect();
    const whole = createChatCompletion(request(cabin)).choices[0]!.message.content!;
    expect(contentOf(chunks)).toBe(whole);
    expect(chunks.slice(1).map((c) => c.choices[0]!.delta.content)).toEqual(tokenize(whole));
  });

  it('ends with length after exactly max_tokens pieces', async () => {
    const chunks = await collect({ max_tokens: 4 });
    expect(chunks).toHaveLength(5);
    expect(chunks[4]!.choices[0]!.finish_reason).toBe('length');
    expect(contentOf(chunks)).toBe('A cozy cabin in');
  });

  it('sends a single empty content chunk with the finish reason when there is no text', async () => {
    const chunks = await collect({ stop: ['A cozy'] });
    expect(chunks).toHaveLength(2);
    expect(chunks[1]!.choices).toEqual([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: 'stop' }]);
  });
});

describe('pacing and abort', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('yields the first chunk at once and waits tokenDelayMs before each later one', async () => {
    vi.useFakeTimers();
    const gen = streamChatCompletion(request(cabin, { max_tokens: 2 }), { tokenDelayMs: 50 });
    expect((await gen.next()).value?.choices[0]?.delta.role).toBe('assistant');
    let second: IteratorResult<ChatChunk> | undefined;
    const pending = gen.next().then((r) => (second = r));
    await vi.advanceTimersByTimeAsync(49);
    expect(second).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(second?.value?.choices[0]?.delta.content).toBe('A');
  });

  it('stops at once when the signal aborts during a wait, without an error or more chunks', async () => {
    const controller = new AbortController();
    const gen = streamChatCompletion(request(cabin), { tokenDelayMs: 60_000, signal: controller.signal });
    await gen.next();
    const next = gen.next();
    controller.abort();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(await gen.next()).toEqual({ done: true, value: undefined });
  });

  it('stops between chunks once aborted, and sends nothing for a signal aborted before it starts', async () => {
    const controller = new AbortController();
    const seen: ChatChunk[] = [];
    for await (const c of streamChatCompletion(request(cabin), { tokenDelayMs: 0, signal: controller.signal })) {
      seen.push(c);
      if (seen.length === 3) controller.abort();
    }
    expect(seen).toHaveLength(3);
    expect(await collect({}, 0, AbortSignal.abort())).toEqual([]);
  });
});
