/**
 * Open and Save. Every file goes through the loader
 * (workflow/load.ts); a refused file is listed problem by problem and the canvas stays as it was;
 * warnings (unknown node types kept, credentials removed, a newer format) are shown after it
 * opens. Opening is one undo step.
 */
import { touchModified } from '../../workflow/create';
import { WorkflowError } from '../../workflow/errors';
import { DEFAULT_LIMITS } from '../../workflow/limits';
import { loadWorkflow } from '../../workflow/load';
import { serializeWorkflow } from '../../workflow/serialize';
import { inlineImages, internalizeImages } from '../../assets/inline';
import type { EditorStore } from '../store/editor-store';
import { pageAssets } from './assets';
import { checkBeforeExport } from './export-check';
import { loadReport, refusalSummary } from './load-report';
import { downloadBlob } from '../ui/download';
import { toast } from '../ui/toast';
import { showProblems } from '../ui/ui-state';
import { showOpened } from '../appview/view-state';

/** A file name for a workflow title: letters, digits and dashes, `.json`. */
export function fileNameFor(title: string): string {
  const slug = title.normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').toLowerCase().slice(0, 80);
  return `${slug || 'workflow'}.json`;
}

/** Opens workflow text from `source` (a file name, an example's title); true when it opened. */
export async function openWorkflowText(store: EditorStore, text: string, source: string): Promise<boolean> {
  try {
    const loaded = loadWorkflow(text, { knownTypes: store.knownTypes() });
    // Its images go into the asset store; the document holds their references.
    const result = store.open({ ...loaded, workflow: await internalizeImages(loaded.workflow, pageAssets) });
    const title = store.getState().doc.metadata.title;
    showOpened(store.getState().doc);
    if (result.warnings.length > 0) {
      const report = loadReport(source, result.warnings, result.workflow, store.registry);
      showProblems({
        severity: 'warning',
        title: `Opened “${title}”, with ${result.warnings.length === 1 ? 'a warning' : `${result.warnings.length} warnings`}`,
        summary: report.summary,
        issues: report.issues,
      });
    } else {
      toast(`Opened “${title}”`, 'success');
    }
    return true;
  } catch (error) {
    if (error instanceof WorkflowError) {
      showProblems({
        severity: 'error',
        title: `${source} was not opened`,
        summary: refusalSummary(error),
        issues: error.issues,
      });
    } else {
      toast(`${source} was not opened: ${error instanceof Error ? error.message : String(error)}`, 'error');
    }
    return false;
  }
}

export async function openWorkflowFile(store: EditorStore, file: File): Promise<boolean> {
  if (file.size > DEFAULT_LIMITS.maxFileChars) {
    toast(`'${file.name}' is ${(file.size / 1e6).toFixed(0)} MB; a workflow file may be at most ${DEFAULT_LIMITS.maxFileChars / 1024 / 1024} MB`, 'error');
    return false;
  }
  let text: string;
  try {
    text = await file.text();
  } catch {
    toast(`'${file.name}' could not be read`, 'error');
    return false;
  }
  return openWorkflowText(store, text, `'${file.name}'`);
}

/**
 * Downloads the workflow as its file (deterministic text) and clears the unsaved marker. What
 * looks like a credential is shown first, and saved only with it removed (export-check.ts).
 */
export function saveWorkflow(store: EditorStore): void {
  void checkBeforeExport(store.getState().doc, 'save', store.registry).then((checked) => {
    if (!checked) {
      toast('Not saved: the file was not written', 'info');
      return;
    }
    // Removing them is an edit: the file says when it was made.
    if (checked !== store.getState().doc) store.rewrite(touchModified(checked), 'remove credentials');
    return download(store);
  }).catch((error: unknown) => toast(`The workflow was not saved: ${error instanceof Error ? error.message : String(error)}`, 'error'));
}

async function download(store: EditorStore): Promise<void> {
  // As it is: `modified` is the time of its last edit (the store moves it), never of the save,
  // so saving the same document twice writes the same bytes.
  const doc = store.getState().doc;
  let text: string;
  try {
    // A file stands alone: the images the document refers to are written as base64.
    text = serializeWorkflow(await inlineImages(doc, pageAssets));
  } catch (error) {
    if (error instanceof WorkflowError) {
      showProblems({ severity: 'error', title: 'The workflow was not saved', summary: 'It would not open again:', issues: error.issues });
    } else {
      toast(`The workflow was not saved: ${error instanceof Error ? error.message : String(error)}`, 'error');
    }
    return;
  }
  downloadBlob(new Blob([text], { type: 'application/json' }), fileNameFor(doc.metadata.title));
  store.markSaved();
  toast(`Saved as ${fileNameFor(doc.metadata.title)}`, 'success');
}
