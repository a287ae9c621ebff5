import { describe, expect, it } from 'vitest';
import { clipPretokenize, countClipTokens, estimateClipTokens } from '../../api/clip-tokens';
import {
  MAX_PROMPT_WEIGHT, analyzePrompt, countPromptTokens, parsePromptWeights, stripPromptWeights, tokenizePrompt,
  weightedPromptTokens,
} from '../../api/prompt';

const w = (text: string, weight: number) => ({ text, weight });

describe('prompt weighting (docs/service-interface.md 2.3)', () => {
  it('leaves unweighted text at weight 1, and an empty prompt empty', () => {
    expect(parsePromptWeights('a cabin in the woods')).toEqual([w('a cabin in the woods', 1)]);
    expect(parsePromptWeights('')).toEqual([]);
  });

  it('rule 1: text inside parentheses weighs 1.1', () => {
    expect(parsePromptWeights('a (cabin) in the woods')).toEqual([w('a ', 1), w('cabin', 1.1), w(' in the woods', 1)]);
  });

  it('rule 2: nested parentheses multiply, three levels giving 1.331', () => {
    expect(parsePromptWeights('((cabin))')).toEqual([w('cabin', 1.21)]);
    expect(parsePromptWeights('(((cabin)))')).toEqual([w('cabin', 1.331)]);
    expect(parsePromptWeights('((((cabin))))')).toEqual([w('cabin', 1.4641)]);
  });

  it('rule 3: (text: weight) applies the weight to every word inside, above or below 1', () => {
    expect(parsePromptWeights('(red wooden cabin: 1.5)')).toEqual([w('red wooden cabin', 1.5)]);
    expect(parsePromptWeights('(fog:0.5), cabin')).toEqual([w('fog', 0.5), w(', cabin', 1)]);
    expect(parsePromptWeights('(fog : 0.75 )')).toEqual([w('fog ', 0.75)]);
    expect(parsePromptWeights('(fog: .5)(rain: 2)(snow: +1.25)(mist: 1.)')).toEqual([
      w('fog', 0.5), w('rain', 2), w('snow', 1.25), w('mist', 1),
    ]);
  });

  it('rule 4: a token weighs the product of all its brackets, explicit and plain', () => {
    expect(parsePromptWeights('((cabin): 1.5)')).toEqual([w('cabin', 1.65)]);
    expect(parsePromptWeights('((cabin: 1.5))')).toEqual([w('cabin', 1.65)]);
    expect(parsePromptWeights('(a (b): 2)')).toEqual([w('a ', 2), w('b', 2.2)]);
    expect(parsePromptWeights('(a ((b: 1.5) c))')).toEqual([w('a ', 1.1), w('b', 1.815), w(' c', 1.21)]);
    expect(parsePromptWeights('((a: 0.5) b: 2)')).toEqual([w('a', 1), w(' b', 2)]);
    expect(parsePromptWeights('(((a: 2): 3): 0.5)')).toEqual([w('a', 3)]);
  });

  it('merges neighbours of equal weight and drops empty groups', () => {
    expect(parsePromptWeights('(a)(b)')).toEqual([w('ab', 1.1)]);
    expect(parsePromptWeights('a(b: 1)c')).toEqual([w('abc', 1)]);
    expect(parsePromptWeights('(a: 1.21)((b))')).toEqual([w('ab', 1.21)]);
    expect(parsePromptWeights('x () (: 1.5) y')).toEqual([w('x   y', 1)]);
  });

  it('rule 6: works the same in negative prompts (one parser for every prompt field)', () => {
    expect(parsePromptWeights('(blurry: 1.4), (lowres)')).toEqual([w('blurry', 1.4), w(', ', 1), w('lowres', 1.1)]);
  });

  it('reads a colon not followed by a number and a closing bracket as text', () => {
    expect(parsePromptWeights('(photo: portrait)')).toEqual([w('photo: portrait', 1.1)]);
    expect(parsePromptWeights('(a: 1.5 b)')).toEqual([w('a: 1.5 b', 1.1)]);
    expect(parsePromptWeights('(a: 1.2.3)')).toEqual([w('a: 1.2.3', 1.1)]);
    expect(parsePromptWeights('(a: 1e3)')).toEqual([w('a: 1e3', 1.1)]);
    expect(parsePromptWeights('(a: -)')).toEqual([w('a: -', 1.1)]);
    expect(parsePromptWeights('time: 5 pm')).toEqual([w('time: 5 pm', 1)]);
    // Only the last ":number" before the bracket is a weight.
    expect(parsePromptWeights('(a:1.2:1.3)')).toEqual([w('a:1.2', 1.3)]);
  });

  it('keeps unmatched brackets as literal text and says so', () => {
    const open = analyzePrompt('((cabin)');
    expect(open.chunks).toEqual([w('(', 1), w('cabin', 1.1)]);
    expect(open.warnings).toEqual([{ index: 0, message: expect.stringContaining("'(' is never closed") as string }]);
    const close = analyzePrompt('cabin) (woods)');
    expect(close.chunks).toEqual([w('cabin) ', 1), w('woods', 1.1)]);
    expect(close.warnings).toEqual([{ index: 5, message: expect.stringContaining("')' has no matching '('") as string }]);
    expect(parsePromptWeights(')(')).toEqual([w(')(', 1)]);
    expect(parsePromptWeights('(a (b: 1.5)')).toEqual([w('(a ', 1), w('b', 1.5)]);
    expect(analyzePrompt('(((').warnings).toEqual([{ index: 0, message: expect.stringContaining('(and 2 more)') as string }]);
  });

  it('takes \\( and \\) as literal brackets and \\\\ as a backslash', () => {
    expect(parsePromptWeights('\\(cabin\\)')).toEqual([w('(cabin)', 1)]);
    expect(parsePromptWeights('(\\(cabin\\))')).toEqual([w('(cabin)', 1.1)]);
    expect(parsePromptWeights('(cabin \\(1890\\): 1.2)')).toEqual([w('cabin (1890)', 1.2)]);
    expect(parsePromptWeights('a\\\\(b)')).toEqual([w('a\\', 1), w('b', 1.1)]);
    expect(parsePromptWeights('a\\b')).toEqual([w('a\\b', 1)]);
    expect(analyzePrompt('\\(x').warnings).toEqual([]);
  });

  it('keeps negative and zero weights, warning about negative ones', () => {
    const negative = analyzePrompt('(fog: -0.5)');
    expect(negative.chunks).toEqual([w('fog', -0.5)]);
    expect(negative.warnings[0]?.message).toContain('negative');
    expect(parsePromptWeights('((fog: -2))')).toEqual([w('fog', -2.2)]);
    expect(parsePromptWeights('(fog: 0)')).toEqual([w('fog', 0)]);
    expect(analyzePrompt('(fog: 0)').warnings).toEqual([]);
  });

  it('warns about a weight so strong it was probably meant as text', () => {
    const ratio = analyzePrompt('(aspect 16:9)');
    expect(ratio.chunks).toEqual([w('aspect 16', 9)]);
    expect(ratio.warnings[0]?.message).toContain("if ':9' is meant as text");
    expect(analyzePrompt('(cabin: 1.8)').warnings).toEqual([]);
  });

  it('clamps huge weights and deep nesting instead of reaching Infinity or NaN', () => {
    const huge = analyzePrompt(`(cabin: 1${'0'.repeat(400)})`);
    expect(huge.chunks).toEqual([w('cabin', MAX_PROMPT_WEIGHT)]);
    expect(huge.warnings[0]?.message).toContain('clamped');
    expect(parsePromptWeights(`((cabin: 0): 1${'0'.repeat(400)})`)).toEqual([w('cabin', 0)]);
    expect(parsePromptWeights(`(cabin: -1${'0'.repeat(12)})`)).toEqual([w('cabin', -MAX_PROMPT_WEIGHT)]);
    const deep = analyzePrompt(`${'('.repeat(10_000)}cabin${')'.repeat(10_000)}`);
    expect(deep.chunks).toEqual([w('cabin', MAX_PROMPT_WEIGHT)]);
    expect(deep.warnings).toHaveLength(1);
  });

  it('handles 20,000-character prompts of every shape', () => {
    const long = 'a (detailed: 1.2) cabin, ((pine)) forest, '.repeat(500);
    expect(long.length).toBeGreaterThanOrEqual(20_000);
    const chunks = parsePromptWeights(long);
    expect(chunks).toHaveLength(1 + 4 * 500);
    expect(new Set(chunks.map((c) => c.weight))).toEqual(new Set([1, 1.2, 1.21]));
    expect(countPromptTokens(long)).toBe(500 * 7);
    for (const pathological of ['('.repeat(20_000), ')'.repeat(20_000), ':'.repeat(20_000), `(${' '.repeat(19_990)}: 1)`, '\\'.repeat(20_000)]) {
      expect(() => countPromptTokens(pathological)).not.toThrow();
    }
    expect(parsePromptWeights('\\'.repeat(20_000))[0]?.text).toHaveLength(10_000);
  });

  it('strips the syntax and lists CLIP word pieces with their weights', () => {
    expect(stripPromptWeights('a ((red: 1.3) cabin), (woods)')).toBe('a red cabin, woods');
    expect(tokenizePrompt("A (Cabin's: 1.2) DOOR, 1890!!")).toEqual(['a', 'cabin', "'s", 'door', ',', '1', '8', '9', '0', '!!']);
    expect(weightedPromptTokens('(red cabin: 1.3), woods')).toEqual([
      w('red', 1.3), w('cabin', 1.3), w(',', 1), w('woods', 1),
    ]);
  });
});

describe('prompt token count (rule 5 and section 8)', () => {
  it('does not count brackets, colons or weight numbers', () => {
    expect(countPromptTokens('cabin')).toBe(1);
    expect(countPromptTokens('(((cabin: 1.5)))')).toBe(1);
    expect(countPromptTokens('(red: 1.2) (cabin: 0.8), ((woods))')).toBe(4);
    expect(countPromptTokens('(: 1.5) ()')).toBe(0);
    expect(countPromptTokens('')).toBe(0);
  });

  it('counts what stays text: literal brackets, a colon without a weight, escaped brackets', () => {
    expect(countPromptTokens('(photo: portrait)')).toBe(3);
    expect(countPromptTokens('\\(cabin\\)')).toBe(3);
    expect(countPromptTokens('cabin)')).toBe(2);
  });

  it('counts each piece between weighting marks on its own, as the encoder tokenizes them', () => {
    expect(countPromptTokens('photograph')).toBe(1);
    expect(countPromptTokens('photo(graph)')).toBe(2);
  });

  it('splits as CLIP does: digits one by one, punctuation runs whole, contractions apart, case ignored', () => {
    expect(countPromptTokens('1024')).toBe(4);
    expect(countPromptTokens('wow!! ...')).toBe(3);
    expect(countPromptTokens("don't")).toBe(2);
    expect(countPromptTokens('A CABIN')).toBe(countPromptTokens('a cabin'));
    expect(clipPretokenize("It's 3:45pm, <|endoftext|> ok")).toEqual(['it', "'s", '3', ':', '4', '5', 'pm', ',', '<|endoftext|>', 'ok']);
    expect(clipPretokenize('&amp; a\u00a0b')).toEqual(['&', 'a', 'b']);
  });

  it('counts common words as one token and long rare words as several', () => {
    for (const word of ['a', 'cabin', 'lighthouse', 'photography', 'masterpiece', 'detailed', 'clouds', 'bending']) {
      expect(countClipTokens(word), word).toBe(1);
    }
    expect(countClipTokens('photorealistic')).toBe(2);
    expect(countClipTokens('artstation')).toBe(2);
    expect(countClipTokens('supercalifragilisticexpialidocious')).toBeGreaterThanOrEqual(8);
  });

  it('sits at the 77-token boundary where it should', () => {
    expect(countPromptTokens('cat '.repeat(77))).toBe(77);
    expect(countPromptTokens('(cat: 1.2) '.repeat(77))).toBe(77);
    expect(countPromptTokens('cat, '.repeat(39))).toBe(78);
  });

  // True counts from the CLIP tokenizer (openai/clip-vit-large-patch14, as used by SD 1.5 and SDXL),
  // without the start and end tokens. The first prompt is composed of words whose CLIP splits are
  // known ("we|athered", "jag|ged", "bas|alt", "volu|metric", "chur|ning", "g|listening",
  // "seabir|ds", "cliff|top"); the rest are tokenizer edge cases.
  const REFERENCE: [string, number][] = [
    ['ancient weathered stone lighthouse on a jagged basalt cliff at dusk, volumetric god rays, churning grey sea, ' +
      'enormous waves crashing against the rocks, wet stone glistening with amber light, seabirds over the clifftop, ' +
      'cinematic composition, epic landscape photography, wide angle lens, deep depth of field, moody teal and ' +
      'orange colour grading, ultra realistic, highly detailed, sharp focus.', 79],
    ['a photograph of an astronaut riding a horse', 8],
    ['photo of a couch, photorealistic', 7],
    ['1girl, solo, long_hair, (masterpiece:1.2), best quality, artist name', 21],
    ["Don't stop, it's 3:45pm!!", 12],
    ["I'M GOING, YOU'LL SEE, WE'D", 10],
    ["rock'n'roll o'clock ''s '' x's 'll'd", 15],
    ['multiple    spaces\tand\nnewlines\r\nend', 6],
    ['12345 3.14159 1,000,000 0x1F 2024-09-25', 35],
    ['score_9, score_8_up, rating:explicit, 16:9, x-ray, ^_^, :3, ;), o_o, >_<', 37],
    ['!!!!!!!!!!!!!!!!!!!!!!!! ??? ... -- ~~ ** ## @@', 9],
    ['caf\u00e9 na\u00efve \u00c9COLE Stra\u00dfe \u00c5ngstr\u00f6m', 15],
    ['\u521d\u97f3\u30df\u30af \u6771\u65b9Project \u6f22\u5b57 \u3072\u3089\u304c\u306a', 26],
    ['\ud55c\uad6d\uc5b4 \u0418\u0432\u0430\u043d \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627', 23],
    ['\ud83d\ude00 \ud83d\udc69\u200d\ud83d\udcbb \u2764\ufe0f \ud83c\udff3\ufe0f\u200d\ud83c\udf08', 5],
    ['supercalifragilisticexpialidocious pneumonoultramicroscopicsilicovolcanoconiosis', 23],
    ['hatsune miku, tachi-e, zettai ryouiki, pok\u00e9mon, v-shaped eyebrows', 22],
  ];

  it('lands within 3% of CLIP on English prompts and within 6% on the whole reference set', () => {
    let truth = 0;
    let estimate = 0;
    for (const [text, tokens] of REFERENCE) {
      const counted = estimateClipTokens(text);
      // Every single text within 12%, or one token for short ones.
      expect(Math.abs(counted - tokens), text).toBeLessThanOrEqual(Math.max(1, tokens * 0.12));
      truth += tokens;
      estimate += counted;
    }
    expect(Math.abs(estimate - truth) / truth).toBeLessThanOrEqual(0.06);
    const [english] = REFERENCE;
    expect(Math.abs(countClipTokens(english![0]) - english![1])).toBeLessThanOrEqual(2);
  });
});
