import { describe, expect, it } from 'vitest';
import { chatPromptWriterNode as node } from '../../nodes/chat-prompt-writer';
import { textValue } from '../../nodes/values';
import { fakeContext } from './fakes';

const parse = (params: unknown) => node.params.parse(params);
const events = [
  { text: '', finishReason: null },
  { text: 'A lighthouse', finishReason: null },
  { text: ' at dusk,', finishReason: null },
  { text: ' oil paint', finishReason: 'stop' as const },
];

describe('chat prompt writer', () => {
  it('streams each piece to partialText and outputs the joined text', async () => {
    const ctx = fakeContext({ chatEvents: events });
    const out = await node.run({ params: parse({}), inputs: {}, ctx });
    expect(ctx.partials).toEqual(['A lighthouse', ' at dusk,', ' oil paint']);
    expect(out).toEqual({ text: textValue('A lighthouse at dusk, oil paint') });
    expect(ctx.progressCalls).toEqual([0, 1]);
  });

  it('fills both templates from text inputs and uses the settings model when none is set', async () => {
    const ctx = fakeContext({ chatEvents: events, chatModel: 'writer-1' });
    await node.run({
      params: parse({ system: 'You write {{style}} prompts.', user: 'About {{subject}}, {{style}}.{{unset}}' }),
      inputs: { style: textValue('noir'), subject: textValue('a cat') },
      ctx,
    });
    expect(ctx.chatRequests).toEqual([{
      model: 'writer-1',
      messages: [
        { role: 'system', content: 'You write noir prompts.' },
        { role: 'user', content: 'About a cat, noir.' },
      ],
    }]);
  });

  it('sends only the chat fields that are set, with the node model, and drops an empty system message', async () => {
    const ctx = fakeContext({ chatEvents: events });
    await node.run({
      params: parse({ model: 'm2', system: '  ', user: 'hi', max_tokens: 60, temperature: 0, top_p: 0.9, stop: ['\n'], frequency_penalty: 0.5, presence_penalty: 0 }),
      inputs: {},
      ctx,
    });
    expect(ctx.chatRequests[0]).toEqual({
      model: 'm2',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 60, temperature: 0, top_p: 0.9, stop: ['\n'], frequency_penalty: 0.5, presence_penalty: 0,
    });
  });

  it('leaves an empty stop list out of the request', async () => {
    const ctx = fakeContext({ chatEvents: events });
    await node.run({ params: parse({ stop: [] }), inputs: {}, ctx });
    expect(ctx.chatRequests[0]).not.toHaveProperty('stop');
  });

  it('passes the abort signal to the client', async () => {
    const ctx = fakeContext({ chatEvents: events });
    let seen: AbortSignal | undefined;
    const stream = ctx.api.chat.stream.bind(ctx.api.chat);
    ctx.api.chat.stream = (request, options) => { seen = options?.signal; return stream(request, options); };
    await node.run({ params: parse({}), inputs: {}, ctx });
    expect(seen).toBe(ctx.signal);
  });

  it('offers one text input per distinct placeholder across both templates', () => {
    const ports = typeof node.inputs === 'function' ? node.inputs(parse({ system: '{{a}} {{b}}', user: '{{b}} {{c}}' })) : [];
    expect(ports.map((p) => p.name)).toEqual(['a', 'b', 'c']);
  });

  it('checks the API ranges of the chat fields', () => {
    expect(node.params.safeParse({ temperature: 2.5 }).success).toBe(false);
    expect(node.params.safeParse({ top_p: -0.1 }).success).toBe(false);
    expect(node.params.safeParse({ frequency_penalty: 1.5 }).success).toBe(false);
    expect(node.params.safeParse({ presence_penalty: 1 }).success).toBe(true);
    expect(node.params.safeParse({ max_tokens: 0 }).success).toBe(false);
    expect(node.params.safeParse({ stream: true }).success).toBe(false);
  });

  it('reports an empty user message and invalid placeholders by param', () => {
    expect(node.validate?.(parse({ user: ' ', system: '{{bad name}}' }), new Set())).toEqual([
      { param: 'system', message: expect.stringContaining('{{bad name}}') as string },
      { param: 'user', message: expect.stringContaining('is empty') as string },
    ]);
    expect(node.validate?.(parse({}), new Set())).toEqual([]);
  });

  it('fails clearly when no model is set anywhere', async () => {
    const ctx = fakeContext({ chatEvents: events, chatModel: '' });
    await expect(node.run({ params: parse({}), inputs: {}, ctx })).rejects.toThrow('no chat model');
  });

  it('is cacheable whatever the temperature (see the node file for why)', () => {
    expect(node.cacheable?.(parse({ temperature: 1.2 }))).toBe(true);
  });
});
