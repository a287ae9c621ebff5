/**
 * Nodes copied to the system clipboard leave the page: they pass the credential check first
 * (files/export-check.ts). Clean text goes at once, from the copy event; text with findings goes
 * only when the person chooses to copy it without them.
 */
import { inlineImages, inlineImagesNow } from '../../assets/inline';
import { serializeWorkflow } from '../../workflow/serialize';
import { pageAssets } from '../files/assets';
import type { Workflow } from '../../workflow/schema';
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
 * Fills the clipboard from within the copy event when nothing in `workflow` looks like a
 * credential; false when something was found (or the check, or an image, is not in memory yet).
 */
export function copyCleanNow(store: EditorStore, workflow: Workflow, event: ClipboardEvent, cut: boolean): boolean {
  if (scanNow(workflow, store.registry)?.length !== 0) return false;
  // Copied nodes paste anywhere: their images go as base64, when all are at hand in memory.
  const standalone = inlineImagesNow(workflow, pageAssets);
  if (standalone === undefined) return false;
  const text = serializeWorkflow(standalone);
  store.setCopiedText(text);
  event.clipboardData?.setData('text/plain', text);
  if (cut) store.deleteSelection();
  return true;
}

/** Checks `workflow` (asking the person about any finding), then puts it on the clipboard. */
export async function copyAfterCheck(store: EditorStore, workflow: Workflow, cut: boolean): Promise<void> {
  const checked = await checkBeforeExport(workflow, 'copy', store.registry);
  if (!checked) {
    toast('Nothing was copied', 'info');
    return;
  }
  const out = serializeWorkflow(await inlineImages(checked, pageAssets));
  store.setCopiedText(out);
  if (!(await writeClipboard(out))) {
    toast('The browser did not let Atelier write to the clipboard', 'error');
    return;
  }
  if (cut) store.deleteSelection();
  toast(checked === workflow ? 'Copied' : 'Copied without what looked like credentials', 'success');
}
