/**
 * A copy (or cut) of the selection, from the page's copy event. The clipboard can be filled
 * within the event only once the credential check is loaded (copy-out.ts, fetched when the person
 * starts working: `warmCopy`); before that, or when the check finds something, the text goes a
 * moment later, after the check.
 */
import type { EditorStore } from '../store/editor-store';
import { toast } from '../ui/toast';
import type * as CopyOutModule from './copy-out';

type CopyOut = typeof CopyOutModule;

let loading: Promise<CopyOut> | undefined;
let loaded: CopyOut | undefined;

function copyOut(): Promise<CopyOut> {
  loading ??= import('./copy-out').then((m) => (loaded = m), (error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Fetches the check and the scanner, so the next copy fills the clipboard at once. */
export function warmCopy(): void {
  copyOut().then((m) => m.loadScanner(), () => undefined).catch(() => undefined);
}

/** Handles a copy (or cut) of the selection; false when nothing was selected (the browser's copy goes on). */
export function copySelection(store: EditorStore, event: ClipboardEvent, cut: boolean): boolean {
  const workflow = store.copy();
  if (!workflow) return false;
  event.preventDefault();
  if (loaded?.copyCleanNow(store, workflow, event, cut)) return true;
  // Something to show first (or the check still loading): the clipboard is filled afterwards.
  copyOut().then((m) => m.copyAfterCheck(store, workflow, cut)).catch((error: unknown) => {
    toast(`Nothing was copied: ${error instanceof Error ? error.message : String(error)}`, 'error');
  });
  return true;
}
