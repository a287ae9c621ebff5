/**
 * Nodes copied to the system clipboard leave the page: they pass the credential check first
 * (files/export-check.ts). Clean text goes at once, from the copy event; text with findings goes
 * only when the person chooses to copy it without them.
 */
import { serializeWorkflow } from '../../workflow/serialize';
import type { EditorStore } from '../store/editor-store';
import { toast } from '../ui/toast';
import { checkBeforeExport, scanNow } from '../files/export-check';

/** Puts `text` on the clipboard outside a copy event (after a dialog): the async API, else the old command. */
export async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const fill = (e: ClipboardEvent) => {
      e.clipboardData?.setData('text/plain', text);
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    document.addEventListener('copy', fill, { capture: true });
    try {
      return document.execCommand('copy');
    } finally {
      document.removeEventListener('copy', fill, { capture: true });
    }
  }
}

/**
 * Handles a copy (or cut) of the selection: fills the clipboard now when nothing in it looks
 * like a credential, else asks first. Returns false when nothing was selected.
 */
export function copySelection(store: EditorStore, event: ClipboardEvent, cut: boolean): boolean {
  const text = store.copy();
  const workflow = store.copiedWorkflow();
  if (text === null || !workflow) return false;
  event.preventDefault();
  const findings = scanNow(workflow, store.registry);
  if (findings?.length === 0) {
    event.clipboardData?.setData('text/plain', text);
    if (cut) store.deleteSelection();
    return true;
  }
  // Something to show first (or the scanner still loading): the clipboard is filled afterwards.
  void checkBeforeExport(workflow, 'copy', store.registry).then(async (checked) => {
    if (!checked) {
      toast('Nothing was copied', 'info');
      return;
    }
    const out = checked === workflow ? text : serializeWorkflow(checked);
    store.setCopiedText(out);
    if (!(await writeClipboard(out))) {
      toast('The browser did not let Atelier write to the clipboard', 'error');
      return;
    }
    if (cut) store.deleteSelection();
    toast(checked === workflow ? 'Copied' : 'Copied without what looked like credentials', 'success');
  });
  return true;
}
