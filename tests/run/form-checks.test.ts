/** The prompt token counts the forms show: asked of the worker once per prompt, the last 500 remembered. */
import { describe, expect, it } from 'vitest';
import { createFormChecks } from '../../src/run/form-checks';

function counting() {
  const asked: string[] = [];
  const checks = createFormChecks({ countPromptTokens: async (prompts) => { asked.push(...prompts); return prompts.map((p) => p.length); } });
  return { asked, checks };
}

describe('form checks', () => {
  it('asks once per prompt and forgets the one least recently used past 500', async () => {
    const { asked, checks } = counting();
    expect(await checks.promptTokens('a red kite')).toBe(10);
    expect(await checks.promptTokens('a red kite')).toBe(10);
    expect(asked).toEqual(['a red kite']);
    for (let i = 0; i < 499; i++) await checks.promptTokens(`prompt ${i}`);
    // Used again, 'a red kite' is the newest: the oldest now is 'prompt 0'.
    await checks.promptTokens('a red kite');
    await checks.promptTokens('one more');
    asked.length = 0;
    await checks.promptTokens('a red kite');
    await checks.promptTokens('prompt 1');
    expect(asked).toEqual([]);
    await checks.promptTokens('prompt 0');
    expect(asked).toEqual(['prompt 0']);
  });
});
