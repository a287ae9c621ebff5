import { describe, expect, it } from 'vitest';
import { LIST_INSTRUCTIONS, chatPromptWriterNode as node } from '../../nodes/chat-prompt-writer';
import { ParamIssuesError } from '../../nodes/errors';
import { textValue, textsValue } from '../../nodes/values';
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
    expect(out).toEqual({ text: textValue('A lighthouse at dusk, oil paint'), items: textsValue(['A lighthouse at dusk, oil paint']) });
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

  const say = (text: string) => [{ text, finishReason: 'stop' as const }];

  it('asked for one item per line, says so at the end of its system message and gives the items as a list', async () => {
    const ctx = fakeContext({ chatEvents: say('Here you go:\n1. "A fox in snow"\n2. A heron at dawn\n\n- An owl, **moonlit**') });
    const out = await node.run({ params: parse({ system: 'You write prompts.', user: 'Three animals', answer_as: 'lines' }), inputs: {}, ctx });
    expect(ctx.chatRequests[0]!.messages[0]).toEqual({ role: 'system', content: `You write prompts.\n\n${LIST_INSTRUCTIONS.lines}` });
    // The chat's own preamble line is an item too: one per line is what was asked for.
    expect(out.items).toEqual(textsValue(['Here you go:', 'A fox in snow', 'A heron at dawn', 'An owl, **moonlit**']));
    expect(out.text).toEqual(textValue('Here you go:\n1. "A fox in snow"\n2. A heron at dawn\n\n- An owl, **moonlit**'));
    expect(ctx.progressMessages.at(-1)).toBe('4 items');
  });

  it('asked for a JSON array, reads it out of a code fence, and asks on its own when the system message is empty', async () => {
    const ctx = fakeContext({ chatEvents: say('Sure!\n```json\n["a fox", "a heron", ""]\n```') });
    const out = await node.run({ params: parse({ system: '', answer_as: 'json' }), inputs: {}, ctx });
    expect(ctx.chatRequests[0]!.messages[0]).toEqual({ role: 'system', content: LIST_INSTRUCTIONS.json });
    expect(out.items).toEqual(textsValue(['a fox', 'a heron']));
  });

  it('reads a JSON request answered as a plain list one item per line, and says so', async () => {
    const ctx = fakeContext({ chatEvents: say('1. a fox\n2. a heron') });
    const out = await node.run({ params: parse({ answer_as: 'json' }), inputs: {}, ctx });
    expect(out.items).toEqual(textsValue(['a fox', 'a heron']));
    expect(ctx.progressMessages.at(-1)).toBe('2 items, one per line: the answer held no JSON');
  });

  it('fails on a list answer it cannot read, naming the field and the cut-off when max_tokens stopped it', async () => {
    const cut = [{ text: '["a fox", "a her', finishReason: 'length' as const }];
    const ctx = fakeContext({ chatEvents: cut });
    const error = await node.run({ params: parse({ answer_as: 'json', max_tokens: 5 }), inputs: {}, ctx }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParamIssuesError);
    expect((error as ParamIssuesError).issues).toEqual([{ param: 'answer_as', message: expect.stringMatching(/^the answer is not a JSON array of strings: .*\(it stopped at max_tokens: raise Max tokens\)$/) as unknown }]);
  });

  it('is cacheable whatever the temperature (see the node file for why)', () => {
    expect(node.cacheable?.(parse({ temperature: 1.2 }))).toBe(true);
  });
});
