/**
 * Keys typed for a new note before its view has arrived (the note view is fetched the first time
 * a note is drawn): kept here and handed to the note's editor when it opens, so N (or Add note)
 * followed at once by typing loses nothing, and no letter is taken as a canvas shortcut.
 */
import type { EditorStore } from '../store/editor-store';
import { itemOf, noteItem } from '../store/frames';

const typed = new Map<string, string>();

/** The new note (selected alone, still empty) whose view has not arrived yet, if there is one. */
export function noteAwaitingView(store: EditorStore): string | undefined {
  const { selection, doc } = store.getState();
  if (selection.nodes.size !== 1) return undefined;
  const item = itemOf([...selection.nodes][0]!);
  if (item.kind !== 'note' || doc.notes?.find((n) => n.id === item.id)?.text !== '') return undefined;
  const drawn = document.querySelector(`.react-flow__node[data-id="${CSS.escape(noteItem(item.id))}"]`);
  // Drawn, but by the stand-in shown while the note view loads.
  return drawn !== null && drawn.querySelector('.note-header') === null ? item.id : undefined;
}

/** Takes a key typed for the note; false for a key that does not write text. */
export function typeAhead(noteId: string, key: string): boolean {
  const text = typed.get(noteId) ?? '';
  if (key === 'Backspace') typed.set(noteId, text.slice(0, -1));
  else if (key === 'Enter') typed.set(noteId, `${text}\n`);
  else if (key.length === 1) typed.set(noteId, text + key);
  else return false;
  return true;
}

/** What was typed for the note before its editor opened (once; then it is the editor's). */
export function takeTypedAhead(noteId: string): string {
  const text = typed.get(noteId) ?? '';
  typed.delete(noteId);
  return text;
}
