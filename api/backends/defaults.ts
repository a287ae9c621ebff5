/**
 * The base URL each backend kind usually listens on, for the settings' placeholders. Apart from
 * config.ts (which re-exports it) so the editor's first load takes it without the zod schemas.
 */
import type { BackendKind } from './types';

export const DEFAULT_BASE_URL: Record<BackendKind, string> = {
  service: 'http://127.0.0.1:8787/local/image',
  comfyui: 'http://127.0.0.1:8188',
  a1111: 'http://127.0.0.1:7860',
  openai: 'https://api.openai.com',
  google: 'https://generativelanguage.googleapis.com',
};
