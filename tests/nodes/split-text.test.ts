import { describe, expect, it } from 'vitest';
import { ParamIssuesError } from '../../nodes/errors';
import { joinTextNode } from '../../nodes/join-text';
import { MAX_ITEMS, SplitError, describeSplit, splitJson, splitLines, splitNumbered, splitSeparator, splitText } from '../../nodes/split-rules';
import { splitTextNode } from '../../nodes/split-text';
import { textValue, textsValue } from '../../nodes/values';
import { fakeContext } from './fakes';

describe('splitting by line', () => {
  it('takes one item per line, dropping blank lines and saying how many', () => {
    const result = splitLines('a fox in snow\n\n  a heron at dawn  \r\n\n');
    expect(result).toEqual({ items: ['a fox in snow', 'a heron at dawn'], dropped: 3 });
    expect(describeSplit(result)).toBe('2 items; 3 empty left out');
  });

  it('takes off what chat models put round list items: numbers, bullets, quotes, bold', () => {
    const chat = [
      '1. "A lighthouse at dusk"',
      '2) a harbour, oil paint',
      '(3) **A storm over the sea**',
      '- a gull',
      '* “a boat”',
      '• the pier',
    ].join('\n');
    expect(splitLines(chat).items).toEqual(['A lighthouse at dusk', 'a harbour, oil paint', 'A storm over the sea', 'a gull', 'a boat', 'the pier']);
  });

  it('keeps numbers and dashes that belong to the item', () => {
    expect(splitLines('3.5 mm lens, macro\n-5 degrees, frost\n2024 skyline').items).toEqual(['3.5 mm lens, macro', '-5 degrees, frost', '2024 skyline']);
  });

  it('drops code fence lines round the list', () => {
    expect(splitLines('```text\na fox\na heron\n```').items).toEqual(['a fox', 'a heron']);
  });
});

describe('splitting a numbered list', () => {
  it('lets an item run over several lines and leaves the preamble out, saying so', () => {
    const chat = 'Here are three prompts:\n\n1. A fox in the snow,\n   morning light\n2. A heron\n3. An owl\n';
    const result = splitNumbered(chat);
    expect(result.items).toEqual(['A fox in the snow, morning light', 'A heron', 'An owl']);
    expect(result.preamble).toBe('Here are three prompts:');
    expect(describeSplit(result)).toBe('3 items; the text before the first item left out');
  });

  it('refuses a text with no numbered items', () => {
    expect(() => splitNumbered('a fox\na heron')).toThrow(SplitError);
    expect(() => splitNumbered('a fox\na heron')).toThrow('has no numbered items');
  });
});

describe('splitting by a separator', () => {
  it('splits, trims and drops empty items; \\n typed means a line break', () => {
    expect(splitSeparator('red, green,, blue ,', ',')).toEqual({ items: ['red', 'green', 'blue'], dropped: 2 });
    expect(splitSeparator('one\n---\ntwo', '\\n---\\n').items).toEqual(['one', 'two']);
    expect(splitSeparator('a\tb', '\\t').items).toEqual(['a', 'b']);
    expect(() => splitSeparator('a,b', '')).toThrow('empty separator');
  });
});

describe('splitting a JSON array', () => {
  it('reads a bare array, and one inside a code fence after a sentence', () => {
    expect(splitJson('["a fox", "a heron"]').items).toEqual(['a fox', 'a heron']);
    expect(splitJson('Sure! Here they are:\n```json\n[\n  "a fox",\n  "a heron"\n]\n```\nEnjoy.').items).toEqual(['a fox', 'a heron']);
    expect(splitJson('The list: ["a fox", "a heron"] as asked.').items).toEqual(['a fox', 'a heron']);
  });

  it('reads the one array of an object, numbers as text, and objects holding one string', () => {
    expect(splitJson('{"prompts": ["a fox", "a heron"]}').items).toEqual(['a fox', 'a heron']);
    expect(splitJson('[1, 2.5]').items).toEqual(['1', '2.5']);
    expect(splitJson('[{"prompt": "a fox"}, {"prompt": "a heron"}]').items).toEqual(['a fox', 'a heron']);
  });

  it('drops empty strings and says what is wrong with anything else, by item', () => {
    expect(splitJson('["a", " ", ""]')).toEqual({ items: ['a'], dropped: 2 });
    expect(() => splitJson('["a", {"x": 1, "y": 2}]')).toThrow('item 2 of the JSON array is an object, not a string');
    expect(() => splitJson('["a", null]')).toThrow('item 2 of the JSON array is null, not a string');
    expect(() => splitJson('{"a": 1}')).toThrow('is an object in JSON, not an array of strings');
    expect(() => splitJson('1. a fox, a heron')).toThrow('is not a JSON array of strings: it holds no "[" (it starts "1. a fox, a heron")');
    expect(() => splitJson('["a fox", "a her')).toThrow('is not a JSON array of strings');
  });

  it('refuses more items than one split gives', () => {
    expect(() => splitText(Array.from({ length: MAX_ITEMS + 1 }, (_, i) => `item ${i}`).join('\n'), 'lines')).toThrow(`at most ${MAX_ITEMS}`);
  });
});

describe('Split text node', () => {
  const parse = (params: unknown) => splitTextNode.params.parse(params);

  it('gives the items as a text list and says how many, with the empty ones left out', async () => {
    const ctx = fakeContext();
    const out = await splitTextNode.run({ params: parse({}), inputs: { text: textValue('a\n\nb\nc') }, ctx });
    expect(out).toEqual({ items: textsValue(['a', 'b', 'c']) });
    expect(ctx.progressMessages).toEqual(['3 items; 1 empty left out']);
  });

  it('fails on a text that holds no items, or is not what the mode reads, naming the mode', async () => {
    const ctx = fakeContext();
    const empty = await splitTextNode.run({ params: parse({}), inputs: { text: textValue(' \n \n') }, ctx }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(ParamIssuesError);
    expect((empty as ParamIssuesError).issues).toEqual([{ param: 'mode', message: 'the text holds no items: the text is empty' }]);
    const json = await splitTextNode.run({ params: parse({ mode: 'json' }), inputs: { text: textValue('a, b') }, ctx }).catch((e: unknown) => e);
    expect((json as ParamIssuesError).issues[0]).toMatchObject({ param: 'mode', message: expect.stringContaining('is not a JSON array of strings') as unknown });
  });

  it('says an empty separator is a problem before anything runs', () => {
    expect(splitTextNode.validate?.(parse({ mode: 'separator', separator: '' }), new Set())).toEqual([{ param: 'separator', message: 'is empty: say what stands between the items' }]);
    expect(splitTextNode.validate?.(parse({ mode: 'lines', separator: '' }), new Set())).toEqual([]);
  });
});

describe('Join text node', () => {
  it('joins a list with the separator, \\n meaning a line break; a single text is a list of one', async () => {
    const params = joinTextNode.params.parse({});
    expect(await joinTextNode.run({ params, inputs: { items: textsValue(['a', 'b']) }, ctx: fakeContext() })).toEqual({ text: textValue('a\nb') });
    const comma = joinTextNode.params.parse({ separator: ', ' });
    expect(await joinTextNode.run({ params: comma, inputs: { items: textsValue(['a', 'b', 'c']) }, ctx: fakeContext() })).toEqual({ text: textValue('a, b, c') });
    expect(await joinTextNode.run({ params, inputs: { items: textValue('only') }, ctx: fakeContext() })).toEqual({ text: textValue('only') });
  });
});
