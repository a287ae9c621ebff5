import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The backend runs in the editor's web worker, the server and the CLI: web-platform globals only. */
const DIR = new URL('../../../api/backends/openai/', import.meta.url);
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.ts'));
const NODE_ONLY = [/from ['"]node:/, /from ['"](fs|http|https|net|stream|buffer|path|url|util|sharp)['"]/, /\bBuffer\b/, /\bprocess\./, /\brequire\(/];
const DOM_ONLY = [/\bwindow\./, /\bdocument\./, /\bXMLHttpRequest\b/, /\blocalStorage\b/, /\bOffscreenCanvas\b/, /\bcreateImageBitmap\b/];

describe('the OpenAI Images backend is portable', () => {
  it('has its files', () => expect(FILES).toContain('index.ts'));
  it.each(FILES)('api/backends/openai/%s uses no Node-only module or DOM global', (name) => {
    const source = readFileSync(new URL(name, DIR), 'utf8');
    for (const pattern of [...NODE_ONLY, ...DOM_ONLY]) expect(source, String(pattern)).not.toMatch(pattern);
  });
});
