/** The front-coded word list the editor ships (api/word-list-codec.ts, scripts/vite-word-list.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMON_WORDS } from '../../api/clip-words';
import { decodeWordList, encodeWordList } from '../../api/word-list-codec';
import { compactWordList, wordsOfSource } from '../../scripts/vite-word-list';

describe('word list codec', () => {
  it('gives back exactly the CLIP word list, in much less space', () => {
    const coded = encodeWordList(COMMON_WORDS);
    expect(decodeWordList(coded)).toBe(COMMON_WORDS);
    expect(coded.length).toBeLessThan(COMMON_WORDS.length * 0.65);
  });

  it('codes shared prefixes up to nine letters', () => {
    expect(encodeWordList('paint painted painter painting')).toBe('0paint5ed6r5ing');
    expect(encodeWordList('abcdefghijkl abcdefghijkm')).toBe('0abcdefghijkl9jkm');
    expect(decodeWordList('0abcdefghijkl9jkm')).toBe('abcdefghijkl abcdefghijkm');
    expect(decodeWordList('')).toBe('');
  });

  it('refuses a list it could not give back', () => {
    expect(() => encodeWordList('beta alpha')).toThrow("'alpha' follows 'beta'");
    expect(() => encodeWordList('alpha alpha')).toThrow('without repeats');
    expect(() => encodeWordList('Alpha beta')).toThrow('lowercase a-z');
    expect(() => encodeWordList('alpha  beta')).toThrow('single spaces');
  });
});

describe('the build plugin', () => {
  const source = readFileSync(new URL('../../api/clip-words.ts', import.meta.url), 'utf8');

  it('reads the same words from clip-words.ts as the module exports', () => {
    expect(wordsOfSource(source)).toBe(COMMON_WORDS);
  });

  it('replaces the module with the coded list and its decoder, and says so when the source changes shape', () => {
    const plugin = compactWordList();
    const transform = plugin.transform as (code: string, id: string) => { code: string } | null;
    expect(transform('export const x = 1;', '/p/api/prompt.ts')).toBeNull();
    const out = transform(source, '/p/api/clip-words.ts')!.code;
    expect(out).toContain("import { decodeWordList } from './word-list-codec';");
    expect(out).toContain(JSON.stringify(encodeWordList(COMMON_WORDS)));
    expect(() => transform('export const COMMON_WORDS = words.join(" ");', '/p/api/clip-words.ts')).toThrow('api/clip-words.ts: expected');
  });
});
