import { describe, expect, it } from 'vitest';
import { CHAT_ROLES } from '../../api/catalog';
import {
  ChatChunkSchema, ChatCompletionSchema, ChatRequestSchema, FINISH_REASONS, ModelListSchema, STREAM_DONE,
} from '../../api/chat';
import { zodIssues, type FieldIssue } from '../../api/image';

const messages = [{ role: 'user', content: 'Write a prompt about a cabin' }];

function refused(body: unknown): FieldIssue[] {
  const result = ChatRequestSchema.safeParse(body);
  if (result.success) throw new Error(`accepted: ${JSON.stringify(body)}`);
  return zodIssues(result.error);
}
const paths = (issues: FieldIssue[]) => issues.map((i) => i.path);

describe('chat completion request (2.7)', () => {
  it('accepts the minimal request and every optional field at its bounds', () => {
    expect(ChatRequestSchema.parse({ model: 'm', messages })).toEqual({ model: 'm', messages });
    const full = {
      model: 'm',
      messages: [{ role: 'system', content: 'You write prompts.' }, { role: 'user', content: 'a cabin' }, { role: 'assistant', content: '' }],
      max_tokens: 1, temperature: 2, top_p: 0, stop: ['\n\n', 'END'], frequency_penalty: 1, presence_penalty: 0, stream: true,
    };
    expect(ChatRequestSchema.parse(full)).toEqual(full);
    ChatRequestSchema.parse({ model: 'm', messages, temperature: 0, top_p: 1, frequency_penalty: 0, presence_penalty: 1 });
  });

  it('requires model and messages, naming them', () => {
    expect(refused({ messages })).toEqual([{ path: 'model', message: 'is required: the name of the model to use' }]);
    expect(paths(refused({ model: '', messages }))).toEqual(['model']);
    expect(refused({ model: 3, messages })[0]?.message).toContain('must be a string');
    expect(refused({ model: 'm' })).toEqual([{ path: 'messages', message: 'is required: a list of {role, content} messages' }]);
    expect(refused({ model: 'm', messages: 'hi' })[0]?.message).toBe('must be a list of {role, content} messages');
    expect(refused({ model: 'm', messages: [] })).toEqual([{ path: 'messages', message: 'needs at least one message' }]);
  });

  it('takes the roles system, assistant and user only, and string content', () => {
    expect(CHAT_ROLES).toEqual(['system', 'assistant', 'user']);
    const role = refused({ model: 'm', messages: [{ role: 'robot', content: 'hi' }] });
    expect(role).toEqual([{ path: 'messages.0.role', message: 'must be one of system, assistant, user' }]);
    expect(paths(refused({ model: 'm', messages: [{ role: 'User', content: 'hi' }] }))).toEqual(['messages.0.role']);
    expect(refused({ model: 'm', messages: [...messages, { role: 'user' }] })).toEqual([{ path: 'messages.1.content', message: 'is required' }]);
    expect(refused({ model: 'm', messages: [{ role: 'user', content: ['a'] }] })[0]).toEqual({ path: 'messages.0.content', message: 'must be a string, not an array' });
    expect(refused({ model: 'm', messages: [{ role: 'user', content: 'hi', name: 'x' }] })).toEqual([{ path: 'messages.0.name', message: 'is not a field of this request' }]);
    // A reply sent back as the service wrote it (2.8) is accepted; a real function call is not.
    expect(ChatRequestSchema.safeParse({ model: 'm', messages: [{ role: 'assistant', content: 'a cabin', function_call: null }] }).success).toBe(true);
    expect(paths(refused({ model: 'm', messages: [{ role: 'assistant', content: 'a cabin', function_call: { name: 'f' } }] }))).toEqual(['messages.0.function_call']);
  });

  const ranges: [string, number, string][] = [
    ['temperature', -0.1, 'between 0 and 2'], ['temperature', 2.01, 'between 0 and 2'],
    ['top_p', -0.01, 'between 0 and 1'], ['top_p', 1.01, 'between 0 and 1'],
    ['frequency_penalty', -0.1, 'between 0 and 1'], ['frequency_penalty', 1.5, 'between 0 and 1'],
    ['presence_penalty', -1, 'between 0 and 1'], ['presence_penalty', 1.1, 'between 0 and 1'],
  ];
  it.each(ranges)('refuses %s = %d, naming the range', (field, value, message) => {
    expect(refused({ model: 'm', messages, [field]: value })).toEqual([{ path: field, message: `must be ${message}` }]);
  });

  it('checks max_tokens, stop and stream', () => {
    expect(paths(refused({ model: 'm', messages, max_tokens: 0 }))).toEqual(['max_tokens']);
    expect(refused({ model: 'm', messages, max_tokens: 1.5 })[0]?.message).toBe('must be a whole number');
    expect(paths(refused({ model: 'm', messages, stop: 'END' }))).toEqual(['stop']);
    expect(refused({ model: 'm', messages, stop: [''] })).toEqual([{ path: 'stop.0', message: 'a stop string cannot be empty' }]);
    expect(refused({ model: 'm', messages, stream: 'yes' })).toEqual([{ path: 'stream', message: 'must be a boolean, not a string' }]);
  });

  it('refuses unknown fields by name', () => {
    expect(refused({ model: 'm', messages, n: 2, logprobs: true })).toEqual([
      { path: 'n', message: 'is not a field of this request' },
      { path: 'logprobs', message: 'is not a field of this request' },
    ]);
  });
});

describe('chat completion response (2.8)', () => {
  const completion = {
    id: 'chatcmpl-123',
    choices: [{
      index: 0,
      message: { role: 'assistant', content: 'a cabin under pines, warm light', function_call: null },
      delta: null,
      finish_reason: 'stop',
    }],
    created: 1_700_000_000,
    model: 'atelier-local',
    object: 'chat.completion',
    system_fingerprint: null,
    usage: { completion_tokens: 7, prompt_tokens: 12, total_tokens: 19 },
  };

  it('accepts the exact shape of 2.8, and without the optional nulls', () => {
    expect(ChatCompletionSchema.parse(completion)).toEqual(completion);
    const { system_fingerprint: _fingerprint, ...bare } = completion;
    const choice = { index: 0, message: { role: 'assistant', content: 'x' }, finish_reason: 'length' };
    expect(ChatCompletionSchema.parse({ ...bare, choices: [choice] }).choices[0]?.finish_reason).toBe('length');
    expect(FINISH_REASONS).toEqual(['stop', 'length', 'content_filter']);
  });

  it('keeps fields the service may add and refuses a body that is not a completion', () => {
    expect(ChatCompletionSchema.parse({ ...completion, service_tier: 'default' })).toMatchObject({ service_tier: 'default' });
    expect(ChatCompletionSchema.safeParse({ ...completion, object: 'chat.completion.chunk' }).success).toBe(false);
    const { usage: _usage, ...noUsage } = completion;
    expect(ChatCompletionSchema.safeParse(noUsage).success).toBe(false);
    expect(ChatCompletionSchema.safeParse({ ...completion, created: 1.5 }).success).toBe(false);
  });
});

describe('chat completion stream chunks (2.9)', () => {
  const base = { id: 'chatcmpl-123', created: 1_700_000_000, model: 'atelier-local' };

  it('accepts the role-only first chunk with null content and no object', () => {
    const first = { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: null }, finish_reason: null }] };
    const parsed = ChatChunkSchema.parse(first);
    expect(parsed).toEqual(first);
    expect(parsed.object).toBeUndefined();
    ChatChunkSchema.parse({ ...first, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: null, function_call: null }, finish_reason: null }] });
  });

  it('accepts text chunks and the last content chunk with its finish_reason', () => {
    const text = { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'a cabin' }, finish_reason: null }] };
    expect(ChatChunkSchema.parse(text).choices[0]?.delta.content).toBe('a cabin');
    for (const reason of FINISH_REASONS) {
      const last = { ...text, choices: [{ index: 0, delta: { content: '.' }, finish_reason: reason }] };
      expect(ChatChunkSchema.parse(last).choices[0]?.finish_reason).toBe(reason);
    }
  });

  it('refuses chunks that are not chunks', () => {
    expect(ChatChunkSchema.safeParse({ ...base, object: 'chat.completion', choices: [] }).success).toBe(false);
    expect(ChatChunkSchema.safeParse({ ...base, choices: [{ index: 0, finish_reason: null }] }).success).toBe(false);
    expect(ChatChunkSchema.safeParse({ created: 1, model: 'm', choices: [] }).success).toBe(false);
  });

  it('ends with the literal [DONE], which is not JSON', () => {
    expect(STREAM_DONE).toBe('[DONE]');
    expect(() => JSON.parse(STREAM_DONE) as unknown).toThrow();
  });

  it('lists models in the usual shape', () => {
    expect(ModelListSchema.parse({ object: 'list', data: [{ id: 'atelier-local', object: 'model', owned_by: 'atelier' }] }).data[0]?.id).toBe('atelier-local');
    expect(ModelListSchema.safeParse({ object: 'list', data: [{ id: 'x' }] }).success).toBe(false);
  });
});
