import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { NodeDefinition } from '../../nodes/types';
import { copyPlain, createMemo, exactKey } from '../../workers/memo';
import { checkParams, parseParams } from '../../workers/params';

describe('exactKey', () => {
  it('is equal for equal plain data, however it was made', () => {
    const a = { prompt: 'a fox', seed: 3, loras: { x: 0.5 }, list: [1, 'two', null, true] };
    expect(exactKey(structuredClone(a))).toBe(exactKey(a));
    expect(exactKey(JSON.parse(JSON.stringify(a)))).toBe(exactKey(a));
  });

  it('tells apart what a parse could tell apart', () => {
    const distinct: unknown[] = [
      {}, { a: undefined }, { a: null }, { a: 0 }, { a: -0 }, { a: '0' }, { a: NaN }, { a: Infinity }, { a: -Infinity },
      { a: false }, { a: 'false' }, { a: [] }, { a: {} }, { a: [undefined] }, { a: ['1,2'] }, { a: [1, 2] },
      { a: 1, b: 2 }, { b: 2, a: 1 }, { 'a:1': 2 }, { a: { b: 1 } }, { 'a{': 1 },
    ];
    const keys = distinct.map((v) => exactKey(v));
    expect(keys.every((k) => k !== undefined)).toBe(true);
    expect(new Set(keys).size).toBe(distinct.length);
  });

  it('gives nothing for what is not plain data, or too long to hold', () => {
    // eslint-disable-next-line no-sparse-arrays -- a hole is what is being tested
    for (const odd of [new Date(0), new Map(), { a: new Set() }, [1, , 3], () => 1, { f: () => 1 }, 1n, Symbol('s'), Object.create(null)]) {
      expect(exactKey(odd)).toBeUndefined();
    }
    expect(exactKey({ b64: 'A'.repeat(5000) })).toBeUndefined();
    expect(exactKey({ a: 'x'.repeat(100) }, 50)).toBeUndefined();
    expect(exactKey(Array.from({ length: 100 }, () => 'xx'), 50)).toBeUndefined();
  });
});

describe('copyPlain', () => {
  it('copies objects and arrays deeply, keeping order and own __proto__ members', () => {
    const value = JSON.parse('{"b":[{"c":1}],"a":"x","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const copy = copyPlain(value);
    expect(copy).not.toBe(value);
    expect(copy.b).not.toBe(value.b);
    expect(Object.keys(copy)).toEqual(['b', 'a', '__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(exactKey(copy)).toBe(exactKey(value));
  });
});

describe('createMemo', () => {
  it('keeps the most recently used entries, as many as it may', () => {
    const memo = createMemo<number>({ maxEntries: 2, maxKeyChars: 100 });
    memo.set('a', 1);
    memo.set('b', 2);
    expect(memo.get('a')).toBe(1); // used again: 'b' is now the one used longest ago
    memo.set('c', 3);
    expect(memo.get('b')).toBeUndefined();
    expect([memo.get('a'), memo.get('c')]).toEqual([1, 3]);
  });

  it('is bounded by the characters of its keys too, and keeps no key longer than that', () => {
    const memo = createMemo<number>({ maxEntries: 100, maxKeyChars: 10 });
    memo.set('x'.repeat(6), 1);
    memo.set('y'.repeat(6), 2); // 12 characters: the first key goes
    expect(memo.get('x'.repeat(6))).toBeUndefined();
    expect(memo.get('y'.repeat(6))).toBe(2);
    memo.set('w'.repeat(11), 3);
    expect(memo.get('w'.repeat(11))).toBeUndefined();
    expect(memo.get('y'.repeat(6))).toBe(2);
  });
});

/** A definition that counts how often its schema and its cross-field rule run. */
function countingNode() {
  const calls = { parse: 0, validate: 0, connected: [] as string[][] };
  const params = z.strictObject({ prompt: z.string().default('x'), steps: z.number().default(1), tags: z.array(z.string()).default([]) })
    .transform((p) => {
      calls.parse++;
      return p;
    });
  const def: NodeDefinition<{ prompt: string; steps: number; tags: string[] }> = {
    type: 'counting', version: 1, title: 'Counting', category: 'text', description: 'Counts.',
    params, inputs: [], outputs: [],
    validate(p, connected) {
      calls.validate++;
      calls.connected.push([...connected]);
      return p.steps > 10 ? [{ param: 'steps', message: 'too many' }] : [];
    },
    run: () => Promise.resolve({}),
  };
  return { def, calls };
}

describe('parameter checks are memoised by content', () => {
  it('checks equal parameters once, and again when a parameter changes', () => {
    const { def, calls } = countingNode();
    const first = checkParams(def, { prompt: 'a', steps: 2 }, new Set());
    expect(checkParams(def, { prompt: 'a', steps: 2 }, new Set())).toEqual(first);
    expect(calls.validate).toBe(1);

    const changed = checkParams(def, { prompt: 'a', steps: 20 }, new Set());
    expect(changed).toEqual({ ok: false, problems: [{ field: 'steps', message: 'too many' }] });
    expect(calls.validate).toBe(2);
    // Back to the first value: remembered, and still what it was.
    expect(checkParams(def, { prompt: 'a', steps: 2 }, new Set())).toEqual(first);
    expect(calls.validate).toBe(2);
  });

  it('keys on the connected ports, in their order, and on the ignored fields', () => {
    const { def, calls } = countingNode();
    checkParams(def, { steps: 20 }, new Set(['a', 'b']));
    checkParams(def, { steps: 20 }, new Set(['b', 'a']));
    expect(calls.connected).toEqual([['a', 'b'], ['b', 'a']]);
    expect(checkParams(def, { steps: 20 }, new Set(['a', 'b']), new Set(['steps'])).ok).toBe(true);
    expect(calls.validate).toBe(3);
  });

  it('tells apart values JSON would confuse: key order, undefined members, NaN', () => {
    const { def } = countingNode();
    const unknownKeys = (params: Record<string, unknown>) => {
      const check = checkParams(def, params, new Set());
      return check.ok ? [] : check.problems.map((p) => p.field);
    };
    expect(unknownKeys({ zz: 1, yy: 2 })).toEqual(['zz, yy']);
    expect(unknownKeys({ yy: 2, zz: 1 })).toEqual(['yy, zz']);
    expect(checkParams(def, { steps: NaN }, new Set()).ok).toBe(false);
    expect(checkParams(def, { steps: null }, new Set()).ok).toBe(false);
    expect(checkParams(def, { prompt: undefined }, new Set())).toEqual({ ok: true, params: { prompt: 'x', steps: 1, tags: [] } });
  });

  it('hands out copies: changing one result changes neither the memo nor the next taker', () => {
    const { def } = countingNode();
    const first = checkParams(def, { tags: ['a'] }, new Set());
    if (!first.ok) throw new Error('expected valid parameters');
    (first.params.tags as string[]).push('b');
    first.params.steps = 99;
    expect(checkParams(def, { tags: ['a'] }, new Set())).toEqual({ ok: true, params: { prompt: 'x', steps: 1, tags: ['a'] } });
    const parsed = parseParams(def, { tags: ['a'] })!;
    parsed.prompt = 'changed';
    expect(parseParams(def, { tags: ['a'] })).toEqual({ prompt: 'x', steps: 1, tags: ['a'] });
  });

  it('parses equal parameters once, and gives undefined where they do not parse', () => {
    const { def, calls } = countingNode();
    expect(parseParams(def, { steps: 3 })).toEqual({ prompt: 'x', steps: 3, tags: [] });
    expect(parseParams(def, { steps: 3 })).toEqual({ prompt: 'x', steps: 3, tags: [] });
    expect(calls.parse).toBe(1);
    expect(parseParams(def, { steps: 4 })).toEqual({ prompt: 'x', steps: 4, tags: [] });
    expect(calls.parse).toBe(2);
    expect(parseParams(def, { steps: 'many' })).toBeUndefined();
  });

  it('keeps two definitions apart, even of the same type', () => {
    const one = countingNode();
    const two = countingNode();
    checkParams(one.def, { steps: 2 }, new Set());
    checkParams(two.def, { steps: 2 }, new Set());
    expect([one.calls.validate, two.calls.validate]).toEqual([1, 1]);
    const strict = { ...two.def, validate: () => [{ param: 'steps', message: 'never' }] };
    expect(checkParams(strict, { steps: 2 }, new Set()).ok).toBe(false);
  });

  it('checks afresh what it cannot key exactly', () => {
    const { def, calls } = countingNode();
    const long = 'p'.repeat(5000);
    checkParams(def, { prompt: long }, new Set());
    checkParams(def, { prompt: long }, new Set());
    expect(calls.validate).toBe(2);
  });
});
