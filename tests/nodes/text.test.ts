import { describe, expect, it } from 'vitest';
import { fillTemplate, parseTemplate, placeholderNames } from '../../nodes/template';
import { textNode } from '../../nodes/text';
import { numberValue, textValue } from '../../nodes/values';
import { fakeContext } from './fakes';

const parse = (params: unknown) => textNode.params.parse(params);

describe('templates', () => {
  it('finds distinct valid names in order and reports invalid ones', () => {
    expect(parseTemplate('{{a}} {{ b }} {{a}} {{1x}} {{two words}} {{}}')).toEqual({
      names: ['a', 'b'],
      invalid: ['{{1x}}', '{{two words}}', '{{}}'],
    });
    expect(placeholderNames('{{x}} {{y}}', '{{y}} {{z}}')).toEqual(['x', 'y', 'z']);
  });

  it('fills valid names, empties absent ones and leaves invalid ones as written', () => {
    expect(fillTemplate('{{a}}-{{ b }}-{{c}}-{{1x}}', { a: 'A', b: '$&' })).toBe('A-$&--{{1x}}');
  });

  it('never resolves names from the object prototype', () => {
    expect(fillTemplate('[{{constructor}}][{{toString}}]', {})).toBe('[][]');
  });
});

describe('text node', () => {
  it('makes one optional text input per distinct placeholder', () => {
    const inputs = textNode.inputs;
    expect(typeof inputs).toBe('function');
    const ports = typeof inputs === 'function' ? inputs(parse({ text: 'a {{subject}} in {{style}}, {{subject}}' })) : [];
    expect(ports.map((p) => [p.name, p.kind, p.optional])).toEqual([['subject', 'text', true], ['style', 'text', true]]);
  });

  it('defaults to empty text with no inputs', () => {
    const p = parse({});
    expect(p).toEqual({ text: '' });
    expect(typeof textNode.inputs === 'function' && textNode.inputs(p)).toEqual([]);
  });

  it('fills connected placeholders and empties unconnected ones', async () => {
    const out = await textNode.run({
      params: parse({ text: 'a {{subject}} in {{style}} style{{mood}}' }),
      inputs: { subject: textValue('fox'), style: textValue('ukiyo-e'), mood: undefined },
      ctx: fakeContext(),
    });
    expect(out).toEqual({ text: textValue('a fox in ukiyo-e style') });
  });

  it('ignores a non-text value rather than printing it', async () => {
    const out = await textNode.run({ params: parse({ text: '[{{n}}]' }), inputs: { n: numberValue(3) }, ctx: fakeContext() });
    expect(out.text).toEqual(textValue('[]'));
  });

  it('reports an invalid placeholder name on the text param', () => {
    expect(textNode.validate?.(parse({ text: 'ok {{fine}} and {{not ok}}' }), new Set())).toEqual([
      { param: 'text', message: expect.stringContaining('{{not ok}} is not a valid name') as string },
    ]);
    expect(textNode.validate?.(parse({ text: '{{fine}}' }), new Set())).toEqual([]);
  });

  it('refuses unknown parameters', () => {
    expect(textNode.params.safeParse({ text: 'x', txt: 'y' }).success).toBe(false);
  });
});
