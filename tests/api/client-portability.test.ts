import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The clients run in a web worker and in Node alike, so they may use web-platform globals only. */
const CLIENT_FILES = ['errors', 'retry', 'exchange', 'http', 'chat-client', 'image-client'];
const NODE_ONLY = [/from ['"]node:/, /from ['"](fs|http|https|net|stream|buffer|path|url|util)['"]/, /\bBuffer\./, /\bprocess\./, /\brequire\(/];
const DOM_ONLY = [/\bwindow\./, /\bdocument\./, /\bXMLHttpRequest\b/, /\blocalStorage\b/];

describe('api clients are portable', () => {
  it.each(CLIENT_FILES)('api/%s.ts uses no Node-only module or DOM global', (name) => {
    const source = readFileSync(new URL(`../../api/${name}.ts`, import.meta.url), 'utf8');
    for (const pattern of [...NODE_ONLY, ...DOM_ONLY]) expect(source).not.toMatch(pattern);
  });
});
