/**
 * The prompt fields' token counts (src/forms/form-checks.ts) answered by the run worker, which
 * holds the CLIP word list. Counts are remembered, so a form drawn again (the view zoomed back
 * in) asks nothing.
 */
import { LRUCache } from 'lru-cache';
import type { FormChecks } from '../forms/form-checks';
import type { RunController } from './controller';

const REMEMBERED_PROMPTS = 500;

export function createFormChecks(controller: Pick<RunController, 'countPromptTokens'>): FormChecks {
  const tokens = new LRUCache<string, number>({ max: REMEMBERED_PROMPTS });
  return {
    async promptTokens(prompt) {
      const known = tokens.get(prompt);
      if (known !== undefined) return known;
      const [count = 0] = await controller.countPromptTokens([prompt]);
      tokens.set(prompt, count);
      return count;
    },
  };
}
