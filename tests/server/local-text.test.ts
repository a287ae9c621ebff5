/**
 * Contract: the local text engine over HTTP answers as section 2.8 says, streams exactly as 2.9
 * says, and an OpenAI-compatible client works against it unchanged.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatChunkSchema, ChatCompletionSchema, ModelListSchema, type ChatChunk, type ChatCompletion } from '../../api/chat';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { postJson, raw } from './http';

let server: ServerProcess;
let model: string;

beforeAll(async () => {
  server = await startServer();
  model = ModelListSchema.parse(JSON.parse((await raw(server.url, '/local/text/v1/models')).text)).data[0]!.id;
});
afterAll(async () => {
  await server.stop();
});

const CHAT = '/local/text/v1/chat/completions';
const cabin = [
  { role: 'system', content: 'You write prompts for an image generator.' },
  { role: 'user', content: 'Write an image prompt about a cabin in the snow.' },
];

async function complete(body: Record<string, unknown>): Promise<ChatCompletion> {
  const res = await postJson(server.url, CHAT, { model, messages: cabin, ...body });
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toBe('application/json');
  return ChatCompletionSchema.parse(JSON.parse(res.text));
}

/** The raw stream, split into its events, checked line by line against section 2.9. */
async function streamEvents(body: Record<string, unknown>): Promise<{ chunks: ChatChunk[]; raw: string }> {
  const res = await postJson(server.url, CHAT, { model, messages: cabin, stream: true, ...body });
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
  expect(res.text.endsWith('data: [DONE]\n\n')).toBe(true);
  const events = res.text.split('\n\n');
  expect(events.pop()).toBe('');
  expect(events.pop()).toBe('data: [DONE]');
  const chunks = events.map((event) => {
    expect(event).toMatch(/^data: \{[^\n]*\}$/);
    return ChatChunkSchema.parse(JSON.parse(event.slice('data: '.length)));
  });
  return { chunks, raw: res.text };
}

describe('GET /v1/models', () => {
  it('lists the models the engine accepts, in the usual shape', async () => {
    const res = await raw(server.url, '/local/text/v1/models');
    expect(res.headers['content-type']).toBe('application/json');
    const list = ModelListSchema.parse(JSON.parse(res.text));
    expect(list.data.length).toBeGreaterThan(0);
  });
});

describe('POST /v1/chat/completions', () => {
  it('answers with a completion per section 2.8 that is about what was asked', async () => {
    const done = await complete({ temperature: 0 });
    expect(done.object).toBe('chat.completion');
    expect(done.model).toBe(model);
    const choice = done.choices[0]!;
    expect(choice.index).toBe(0);
    expect(choice.message.role).toBe('assistant');
    expect(choice.message.content!.toLowerCase()).toContain('cabin');
    expect(choice.finish_reason).toBe('stop');
    expect(done.usage.total_tokens).toBe(done.usage.prompt_tokens + done.usage.completion_tokens);
    expect(done.created).toBeGreaterThan(1_700_000_000);
  });

  it('is deterministic at temperature 0', async () => {
    const [a, b] = await Promise.all([complete({ temperature: 0 }), complete({ temperature: 0 })]);
    expect(a.choices[0]!.message.content).toBe(b.choices[0]!.message.content);
    expect(a.id).not.toBe(b.id);
  });

  it('honours max_tokens with finish_reason length', async () => {
    const done = await complete({ temperature: 0, max_tokens: 4 });
    expect(done.choices[0]!.finish_reason).toBe('length');
    expect(done.usage.completion_tokens).toBeLessThanOrEqual(4);
  });

  it('honours stop: stops before the stop text and leaves it out', async () => {
    const full = (await complete({ temperature: 0 })).choices[0]!.message.content!;
    const words = full.split(/\s+/).filter((w) => /^[a-z]{4,}$/i.test(w));
    const stopWord = words[Math.floor(words.length / 2)]!;
    const stopped = await complete({ temperature: 0, stop: [stopWord] });
    const text = stopped.choices[0]!.message.content!;
    expect(stopped.choices[0]!.finish_reason).toBe('stop');
    expect(text).not.toContain(stopWord);
    expect(full.startsWith(text)).toBe(true);
  });
});

describe('model names (section 4, rule 3: the accepted list is not shown)', () => {
  // A workflow shared by someone who named a hosted model on its node must run offline too, and
  // the stand-in cannot know which names the service would refuse, so it answers any of them.
  it.each(['mixtral-8x7b-instruct', 'meta-llama-3.1-8b-instruct', 'a name no service has'])('answers %s and reports it back in model', async (name) => {
    const done = await postJson(server.url, CHAT, { model: name, messages: cabin, temperature: 0 });
    expect(done.status, done.text).toBe(200);
    const completion = ChatCompletionSchema.parse(JSON.parse(done.text));
    expect(completion.model).toBe(name);
    expect(completion.choices[0]!.message.content).toBe((await complete({ temperature: 0 })).choices[0]!.message.content);
    const { chunks } = await streamEvents({ model: name, temperature: 0 });
    for (const chunk of chunks) expect(chunk.model).toBe(name);
  });

  it('keeps listing only the local models', async () => {
    const list = ModelListSchema.parse(JSON.parse((await raw(server.url, '/local/text/v1/models')).text));
    expect(list.data.map((m) => m.id)).not.toContain('mixtral-8x7b-instruct');
    expect(list.data.map((m) => m.id)).toContain(model);
  });
});

describe('streaming (section 2.9)', () => {
  it('sends a role-only first chunk, text chunks, finish_reason on the last content chunk only, then [DONE]', async () => {
    const { chunks } = await streamEvents({ temperature: 0 });
    expect(chunks.length).toBeGreaterThan(2);
    const [first, ...rest] = chunks;
    expect(first!.choices[0]!.delta).toMatchObject({ role: 'assistant', content: null });
    expect(first!.choices[0]!.finish_reason).toBeNull();
    for (const [i, chunk] of rest.entries()) {
      const choice = chunk.choices[0]!;
      expect(typeof choice.delta.content).toBe('string');
      expect(choice.finish_reason).toBe(i === rest.length - 1 ? 'stop' : null);
    }
    for (const chunk of chunks) {
      expect(chunk.id).toBe(first!.id);
      expect(chunk.model).toBe(model);
      if (chunk !== first) expect(chunk.object).toBe('chat.completion.chunk');
    }
    const text = rest.map((c) => c.choices[0]!.delta.content).join('');
    expect(text).toBe((await complete({ temperature: 0 })).choices[0]!.message.content);
  });

  it('ends with finish_reason length when max_tokens is reached', async () => {
    const { chunks } = await streamEvents({ temperature: 0, max_tokens: 3 });
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('length');
    expect(chunks.filter((c) => c.choices[0]!.finish_reason !== null)).toHaveLength(1);
  });
});

describe('an OpenAI-compatible client, unchanged', () => {
  const client = () => new OpenAI({ baseURL: `${server.url}/local/text/v1`, apiKey: 'any-key-works-locally', maxRetries: 0 });

  it('gets a completion', async () => {
    const done = await client().chat.completions.create({ model, messages: [{ role: 'user', content: 'A prompt about a lighthouse, please.' }], temperature: 0 });
    expect(done.choices[0]!.message.content!.toLowerCase()).toContain('lighthouse');
    expect(done.usage!.total_tokens).toBeGreaterThan(0);
  });

  it('streams a completion', async () => {
    const stream = await client().chat.completions.create({ model, messages: [{ role: 'user', content: 'A prompt about a lighthouse, please.' }], temperature: 0, stream: true });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text.toLowerCase()).toContain('lighthouse');
    expect(finish).toBe('stop');
  });

  it('continues a conversation with the reply sent back as it came (function_call: null)', async () => {
    const openai = client();
    const first = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'A prompt about a cabin, please.' }], temperature: 0 });
    const reply = first.choices[0]!.message;
    expect(reply).toHaveProperty('function_call', null);
    const second = await openai.chat.completions.create({
      model, temperature: 0,
      messages: [
        { role: 'user', content: 'A prompt about a cabin, please.' },
        reply as OpenAI.Chat.ChatCompletionAssistantMessageParam,
        { role: 'user', content: 'Now the same cabin in winter.' },
      ],
    });
    expect(second.choices[0]!.message.content!.length).toBeGreaterThan(0);
    expect(second.usage!.prompt_tokens).toBeGreaterThan(first.usage!.prompt_tokens);
  });

  it('lists the local models', async () => {
    const ids: string[] = [];
    for await (const m of client().models.list()) ids.push(m.id);
    expect(ids).toContain(model);
  });
});
