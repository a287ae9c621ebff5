/** OpenAI Images as a backend: what it says of itself, for settings, flags and docs (index.ts is the code). */
import { describeBackend } from '../describe';

/** The model the backend uses when its settings name none. */
export const DEFAULT_MODEL = 'gpt-image-1';

export const openaiDescription = describeBackend({
  kind: 'openai',
  label: 'OpenAI Images',
  summary: "OpenAI's Images API (gpt-image-1, dall-e-2, dall-e-3) and servers compatible with it (LocalAI)",
  defaultBaseUrl: 'https://api.openai.com',
  credential: { label: 'API key', help: 'Sent as Authorization: Bearer to this base URL only.', required: false },
  names: [
    { key: 'model', label: 'Model', hint: `${DEFAULT_MODEL} when empty; a compatible server's own model names work too.`, need: 'optional', default: DEFAULT_MODEL, suggestFrom: ['models'] },
  ],
  browser: {
    direct: true,
    // An OpenAI-compatible server people run themselves (LocalAI); the hosted APIs decide on their own.
    corsFlag: (origin) => `--cors --cors-allow-origins=${origin}`,
    caution: 'The key is kept in this browser, where anyone using this browser profile can read it: prefer the route through this server (`ATELIER_IMAGE_BACKEND=openai`, `ATELIER_BACKEND_TOKEN`), or use a project key with a spending limit.',
    allowOrigin: (origin) => `A compatible server (LocalAI) must allow this page: \`--cors --cors-allow-origins=${origin}\`.`,
  },
  pool: false,
});
