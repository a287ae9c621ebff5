/**
 * A copy (or cut) of the selection, from the page's copy event. Clean text fills the clipboard
 * within the event; when the credential check finds something (or an image is not in memory),
 * the text goes a moment later, after the check.
 */
import type { EditorStore } from '../store/editor-store';
import { toast } from '../ui/toast';
import { copyAfterCheck, copyCleanNow } from './copy-out';

/** Handles a copy (or cut) of the selection; false when nothing was selected (the browser's copy goes on). */
export function copySelection(store: EditorStore, event: ClipboardEvent, cut: boolean): boolean {
  const workflow = store.copy();
  if (!workflow) return false;
  event.preventDefault();
  if (copyCleanNow(store, workflow, event, cut)) return true;
  copyAfterCheck(store, workflow, cut).catch((error: unknown) => {
    toast(`Nothing was copied: ${error instanceof Error ? error.message : String(error)}`, 'error');
  });
  return true;
}
