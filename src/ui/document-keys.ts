/**
 * The keys that act on the whole document (save, open, undo, redo) wherever the editor shows it:
 * the canvas's shortcuts (src/canvas/use-shortcuts.ts) and App view share this one rule. Inside
 * a text field the browser keeps undo for the typing, as it does on the canvas; the file keys work
 * everywhere but inside dialogs. Ctrl+Enter (Run) and Escape belong to the run side (src/run).
 */
import { useEffect } from 'react';
import { chooseAndOpen, saveWorkflow } from '../files/commands';
import type { EditorStore } from '../store/editor-store';

/** Whether keys typed here belong to a text control rather than to the editor. */
export function isTextTarget(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'range', 'file', 'color'].includes(target.type);
  return false;
}

/** Whether the key was pressed inside a dialog or the palette, which keep their keys. */
export function inDialog(target: EventTarget | null): boolean {
  return typeof Element !== 'undefined' && target instanceof Element && target.closest('dialog, .palette') !== null;
}

export type DocumentCommand = 'save' | 'open' | 'undo' | 'redo';

/** The parts of a key event the rule reads. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/**
 * The document command a key asks for, or undefined: `text` when the key goes to a text control,
 * `dialog` when to a dialog or the palette.
 */
export function documentCommand(e: KeyPress, where: { text: boolean; dialog: boolean }): DocumentCommand | undefined {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return undefined;
  const key = e.key.toLowerCase();
  if (where.dialog) return undefined;
  if (key === 's') return 'save';
  if (key === 'o') return 'open';
  // A text field's own undo takes back its typing; the document's would take the whole edit.
  if (where.text) return undefined;
  if (key === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (key === 'y') return 'redo';
  return undefined;
}

/** Carries out a document command on the store. */
export function runDocumentCommand(store: EditorStore, command: DocumentCommand): void {
  if (command === 'save') saveWorkflow(store);
  else if (command === 'open') chooseAndOpen(store);
  else if (command === 'undo') store.undo();
  else store.redo();
}

/**
 * Handles a document key from a keydown: true (and the browser's own action prevented) when it
 * was one, so the caller stops there.
 */
export function handleDocumentKey(e: KeyboardEvent, store: EditorStore): boolean {
  if (e.defaultPrevented) return false;
  const command = documentCommand(e, { text: isTextTarget(e.target), dialog: inDialog(e.target) });
  if (command === undefined) return false;
  e.preventDefault();
  runDocumentCommand(store, command);
  return true;
}

/** The document keys for a view without the canvas (App view): the canvas has them in its own shortcuts. */
export function useDocumentKeys(store: EditorStore): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => void handleDocumentKey(e, store);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}
