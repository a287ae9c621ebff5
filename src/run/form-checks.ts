/**
 * The prompt fields' token counts (src/forms/form-checks.ts) answered by the run worker, which
 * holds the CLIP word list. Counts are remembered, so a form drawn again (the view zoomed back
 * in) asks nothing.
 */
import type { FormChecks } from '../forms/form-checks';
import type { RunController } from './controller';

const REMEMBERED_PROMPTS = 500;

export function createFormChecks(controller: Pick<RunController, 'countPromptTokens'>): FormChecks {
  const tokens = new Map<string, number>();
  return {
    async promptTokens(prompt) {
      const known = tokens.get(prompt);
      if (known !== undefined) return known;
      const [count = 0] = await controller.countPromptTokens([prompt]);
      if (tokens.size >= REMEMBERED_PROMPTS) tokens.delete(tokens.keys().next().value!);
      tokens.set(prompt, count);
      return count;
    },
  };
}
