/** The help dialog's list of painter keys says what the painter really does with them. */
import { describe, expect, it } from 'vitest';
import { SHORTCUTS } from '../../src/canvas/shortcuts';
import { maskCommand } from '../../src/mask/mask-model';

/** 'Ctrl+Shift+Z' as the key event the painter reads. */
function press(combo: string) {
  const parts = combo.split('+');
  const key = parts.at(-1)!;
  const has = (m: string) => parts.slice(0, -1).includes(m);
  return { key: key.length === 1 ? key.toLowerCase() : key, ctrlKey: has('Ctrl'), metaKey: has('⌘'), shiftKey: has('Shift'), altKey: has('Alt') };
}

describe('the help for the mask painter', () => {
  const listed = SHORTCUTS.filter((s) => s.group === 'Mask painter');

  it('lists keys for every command the painter has', () => {
    const commands = new Set(listed.flatMap((s) => s.keys.split(/ \/ |, /).map((k) => maskCommand(press(k)))));
    expect([...commands].filter((c) => c !== undefined).sort()).toEqual(['brush', 'eraser', 'invert', 'larger', 'redo', 'save', 'smaller', 'undo']);
  });

  it('lists no key the painter ignores (Escape aside: the dialog closes on it)', () => {
    for (const s of listed) {
      for (const k of s.keys.split(/ \/ |, /)) {
        if (k !== 'Escape') expect(maskCommand(press(k)), `${k} (${s.action})`).toBeDefined();
      }
    }
  });
});
