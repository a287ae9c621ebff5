/**
 * The document keys App view shares with the canvas: save and open everywhere but in dialogs,
 * undo and redo only where no text field keeps its own undo.
 */
import { describe, expect, it } from 'vitest';
import { documentCommand, isTextTarget, type KeyPress } from '../../src/ui/document-keys';

const press = (key: string, mods: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress => ({
  key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods,
});
const page = { text: false, dialog: false };
const field = { text: true, dialog: false };
const dialog = { text: false, dialog: true };

describe('document keys', () => {
  it('Ctrl or Cmd with S, O, Z, Shift+Z and Y are save, open, undo and redo', () => {
    expect(documentCommand(press('s', { ctrlKey: true }), page)).toBe('save');
    expect(documentCommand(press('S', { metaKey: true }), page)).toBe('save');
    expect(documentCommand(press('o', { ctrlKey: true }), page)).toBe('open');
    expect(documentCommand(press('z', { ctrlKey: true }), page)).toBe('undo');
    expect(documentCommand(press('Z', { ctrlKey: true, shiftKey: true }), page)).toBe('redo');
    expect(documentCommand(press('y', { metaKey: true }), page)).toBe('redo');
  });

  it('in a text field, save and open still work but undo and redo are the field\'s own', () => {
    expect(documentCommand(press('s', { ctrlKey: true }), field)).toBe('save');
    expect(documentCommand(press('o', { ctrlKey: true }), field)).toBe('open');
    expect(documentCommand(press('z', { ctrlKey: true }), field)).toBeUndefined();
    expect(documentCommand(press('z', { ctrlKey: true, shiftKey: true }), field)).toBeUndefined();
    expect(documentCommand(press('y', { ctrlKey: true }), field)).toBeUndefined();
  });

  it('a dialog keeps every key; keys without Ctrl or Cmd, or with Alt (AltGr), are no commands', () => {
    for (const key of ['s', 'o', 'z', 'y']) expect(documentCommand(press(key, { ctrlKey: true }), dialog)).toBeUndefined();
    expect(documentCommand(press('s'), page)).toBeUndefined();
    expect(documentCommand(press('z', { shiftKey: true }), page)).toBeUndefined();
    expect(documentCommand(press('s', { ctrlKey: true, altKey: true }), page)).toBeUndefined();
    expect(documentCommand(press('k', { ctrlKey: true }), page)).toBeUndefined();
  });

  it('without a DOM nothing is a text field', () => {
    expect(isTextTarget(null)).toBe(false);
    expect(isTextTarget({} as EventTarget)).toBe(false);
  });
});
