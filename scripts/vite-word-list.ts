/**
 * A Vite plugin that ships api/clip-words.ts front-coded (api/word-list-codec.ts): the source
 * stays a readable list, the editor's first load carries about 1.7 kB less gzipped. The coded
 * list is decoded back and compared at build time, so the browser gets exactly the same words.
 */
import type { Plugin } from 'vite';
// '.js': loaded by vite.config.ts (see there).
import { decodeWordList, encodeWordList } from '../api/word-list-codec.js';

const FILE = /[\\/]api[\\/]clip-words\.ts$/;
/** `export const COMMON_WORDS = 'a b ' + 'c d';` and nothing else but comments. */
const DECLARATION = /export const COMMON_WORDS =((?:\s*'[a-z ]*'\s*\+?)+);/;

/** The words of clip-words.ts's source, or an error saying why its shape is not understood. */
export function wordsOfSource(source: string): string {
  const match = DECLARATION.exec(source);
  if (!match) throw new Error("api/clip-words.ts: expected `export const COMMON_WORDS = '...' + '...';` (scripts/vite-word-list.ts reads that shape)");
  return [...match[1]!.matchAll(/'([a-z ]*)'/g)].map((m) => m[1]).join('');
}

export function compactWordList(): Plugin {
  return {
    name: 'atelier:compact-word-list',
    apply: 'build',
    // Before the TypeScript transform, which may rewrite the literals' quotes.
    enforce: 'pre',
    transform(code, id) {
      if (!FILE.test(id)) return null;
      const words = wordsOfSource(code);
      const coded = encodeWordList(words);
      if (decodeWordList(coded) !== words) throw new Error('api/clip-words.ts: the front-coded word list does not decode to the original');
      return {
        code: `import { decodeWordList } from './word-list-codec';\nexport const COMMON_WORDS = decodeWordList(${JSON.stringify(coded)});\n`,
        map: null,
      };
    },
  };
}
