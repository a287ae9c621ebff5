/**
 * The prompt fields' token counts (src/forms/form-checks.ts) answered by the run worker, which
 * holds the CLIP word list. Counts are remembered, so a form drawn again (the view zoomed back
 * in) asks nothing: the last 500 asked, in a Map kept in order of use (a Map iterates in the
 * order keys were set), which is all the page needs of an LRU cache (the lru-cache package
 * weighed about 6 kB gzipped at the editor's start).
 */
import type { FormChecks } from '../forms/form-checks';
import type { RunController } from './controller';

const REMEMBERED_PROMPTS = 500;

export function createFormChecks(controller: Pick<RunController, 'countPromptTokens'>): FormChecks {
  const tokens = new Map<string, number>();
  return {
    async promptTokens(prompt) {
      const known = tokens.get(prompt);
      if (known !== undefined) {
        // Used again: it moves to the end, the last to be forgotten.
        tokens.delete(prompt);
        tokens.set(prompt, known);
        return known;
      }
      const [count = 0] = await controller.countPromptTokens([prompt]);
      tokens.delete(prompt);
      tokens.set(prompt, count);
      if (tokens.size > REMEMBERED_PROMPTS) tokens.delete(tokens.keys().next().value!);
      return count;
    },
  };
}
