/** Token counting, max_tokens, stop, usage and the exact completion shape of the local chat engine. */
import { describe, expect, it } from 'vitest';
import { ChatCompletionSchema, ModelListSchema } from '../../api/chat';
import {
  LOCAL_CHAT_MODELS, countPromptTokens, createChatCompletion, listModels, tokenize,
} from '../../server/engines/text';
import { CABIN, PROMPT_WRITER, reply, request, system, user } from './text-helpers';

const cabin = [system(PROMPT_WRITER), user(CABIN)];
const full = reply(cabin);
const complete = (extra: Parameters<typeof request>[1] = {}) => createChatCompletion(request(cabin, extra));

describe('tokenizer', () => {
  it('splits words and punctuation, and joins back to the exact text', () => {
    expect(tokenize('Hello, world!')).toEqual(['Hello', ',', ' world', '!']);
    expect(tokenize("don't stop")).toEqual(["don't", ' stop']);
    for (const text of ['', '  leading', 'trailing  ', 'a\n\nb', 'f/2.8 at 35mm', 'emoji 🎨 here', 'tabs\tand\r\nlines ']) {
      expect(tokenize(text).join('')).toBe(text);
    }
  });

  it('counts each message with a fixed framing overhead', () => {
    expect(countPromptTokens([user('one two')])).toBe(3 + 4 + 2);
    expect(countPromptTokens(cabin)).toBe(3 + (4 + tokenize(PROMPT_WRITER).length) + (4 + tokenize(CABIN).length));
  });
});

describe('max_tokens', () => {
  it('cuts at exactly max_tokens with finish_reason length, as a prefix of the whole answer', () => {
    const r = complete({ max_tokens: 5 });
    const text = r.choices[0]!.message.content!;
    expect(r.choices[0]!.finish_reason).toBe('length');
    expect(r.usage.completion_tokens).toBe(5);
    expect(tokenize(text)).toHaveLength(5);
    expect(full.startsWith(text)).toBe(true);
  });

  it('leaves an answer that fits alone, with finish_reason stop', () => {
    const n = tokenize(full).length;
    for (const max of [n, n + 1, 32_768]) {
      const r = complete({ max_tokens: max });
      expect(r.choices[0]!.message.content).toBe(full);
      expect(r.choices[0]!.finish_reason).toBe('stop');
    }
    expect(complete({ max_tokens: n - 1 }).choices[0]!.finish_reason).toBe('length');
  });
});

describe('stop', () => {
  it('ends before the first occurrence of any stop string, which is not returned', () => {
    const r = complete({ stop: [', '] });
    expect(r.choices[0]!.message.content).toBe('A cozy cabin in the snowy woods at dusk');
    expect(r.choices[0]!.finish_reason).toBe('stop');
    expect(complete({ stop: [', ', 'snowy'] }).choices[0]!.message.content).toBe('A cozy cabin in the ');
  });

  it('changes nothing when no stop string occurs, and can leave no text at all', () => {
    expect(complete({ stop: ['§§'] }).choices[0]!.message.content).toBe(full);
    const empty = complete({ stop: ['A cozy'] });
    expect(empty.choices[0]!.message.content).toBe('');
    expect(empty.usage.completion_tokens).toBe(0);
  });

  it('still reports length when max_tokens is reached before the stop string', () => {
    const r = complete({ stop: ['dusk'], max_tokens: 3 });
    expect(r.choices[0]!.finish_reason).toBe('length');
    expect(r.choices[0]!.message.content).toBe('A cozy cabin');
  });
});

describe('completion object', () => {
  it('has the exact shape of 2.8 with usage consistent with the text', () => {
    const before = Math.floor(Date.now() / 1000);
    const r = createChatCompletion(request(cabin, { model: 'local' }));
    expect(ChatCompletionSchema.safeParse(r).success).toBe(true);
    expect(r.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(r.object).toBe('chat.completion');
    expect(r.created).toBeGreaterThanOrEqual(before);
    expect(r.created).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(r.model).toBe('local');
    expect(r.system_fingerprint).toBeNull();
    expect(r.choices).toEqual([{ index: 0, message: { role: 'assistant', content: full, function_call: null }, delta: null, finish_reason: 'stop' }]);
    expect(r.usage).toEqual({
      prompt_tokens: countPromptTokens(cabin),
      completion_tokens: tokenize(full).length,
      total_tokens: countPromptTokens(cabin) + tokenize(full).length,
    });
  });

  it('gives every completion its own id', () => {
    expect(complete().id).not.toBe(complete().id);
  });

  it('never echoes a pasted page: the subject is clipped', () => {
    const r = createChatCompletion(request([user('no '.repeat(60_000))]));
    expect(r.choices[0]!.message.content!.length).toBeLessThan(1000);
    expect(createChatCompletion(request([user(CABIN), { role: 'assistant', content: 'ok' }, user('replace '.repeat(20_000))])).choices[0]!.finish_reason).toBe('stop');
  });

  it('copes with a very long conversation', () => {
    const long = `${CABIN}. ${'The snow falls quietly over the pines, and no one comes. '.repeat(3000)}`;
    const r = createChatCompletion(request([user(long)]));
    expect(r.usage.prompt_tokens).toBe(countPromptTokens([user(long)]));
    expect(r.choices[0]!.message.content).toMatch(/cabin/);
  });
});

describe('models', () => {
  it('lists the local model names in the usual shape, saying they are local', () => {
    const list = listModels();
    expect(ModelListSchema.safeParse(list).success).toBe(true);
    expect(list.data.map((m) => m.id)).toEqual([...LOCAL_CHAT_MODELS]);
    expect(LOCAL_CHAT_MODELS).toContain('atelier-local-chat');
    for (const m of list.data) expect(String(m.description)).toMatch(/offline/);
  });
});
