/** The cost panel's line per node of what its backend approximates or leaves out. */
import { describe, expect, it } from 'vitest';
import type { TranslationNote } from '../../api/backends/types';
import { notesLine } from '../../src/run/BackendNotes';

const LABELS: Record<string, string> = { negative_prompt: 'Negative prompt', seed: 'Seed', sampler: 'Sampler', steps: 'Steps', width: 'Width', style_preset: 'Style preset' };
const label = (field: string) => LABELS[field] ?? field;

describe('notesLine', () => {
  it('names the fields left out together, and says each approximation in full', () => {
    const notes: TranslationNote[] = [
      { field: 'width', treatment: 'approximated', message: '896×1152 becomes 1024×1536, the nearest size gpt-image-1 makes' },
      { field: 'negative_prompt', treatment: 'not-sent', message: 'OpenAI Images has no negative prompt; it is left out' },
      { field: 'seed', treatment: 'not-sent', message: 'OpenAI Images takes no seed' },
      { field: 'sampler', treatment: 'not-sent', message: 'left out' },
      { field: 'steps', treatment: 'not-sent', message: 'left out' },
    ];
    expect(notesLine(notes, label)).toBe('Negative prompt, Seed, Sampler and Steps are not sent; Width: 896×1152 becomes 1024×1536, the nearest size gpt-image-1 makes');
  });

  it('reads well with one field left out, or only approximations', () => {
    expect(notesLine([{ field: 'seed', treatment: 'not-sent', message: 'x' }], label)).toBe('Seed is not sent');
    expect(notesLine([{ field: 'style_preset', treatment: 'approximated', message: "'cinematic' becomes style words" }], label)).toBe("Style preset: 'cinematic' becomes style words");
  });
});
