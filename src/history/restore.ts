/**
 * Bringing back a workflow that travelled with an output: the one embedded in a downloaded image
 * dropped on the canvas, or a run's own from the history. Either way it is read by the loader
 * like any file from anyone (nodes/load-options.ts's catalogue options: unknown types kept,
 * credentials dropped), opens as one undo step (Undo brings the current graph back), and a
 * refusal says why and leaves the graph as it was. Loaded when first needed.
 */
import { catalogueLoadOptions } from '../../nodes/load-options';
import { extractWorkflow, ImageEmbedError, readImageManifest } from '../../workflow/embed';
import { WorkflowError } from '../../workflow/errors';
import { loadWorkflow, type LoadResult } from '../../workflow/load';
import type { NodeRegistry } from '../../nodes/index';
import type { Workflow } from '../../workflow/schema';
import { refusalSummary } from '../files/load-report';
import { internalizeImages } from '../../assets/inline';
import { pageAssets } from '../files/assets';
import { toast } from '../ui/toast';
import { showProblems } from '../ui/ui-state';
import { showOpened } from '../appview/view-state';

/** What restoring needs of the editor. */
export interface RestoreTarget {
  registry: NodeRegistry;
  /** Installs the workflow as one undo step. */
  restore(workflow: Workflow): void;
}

/** The file's workflow loaded, or the problems shown and undefined. */
function load(text: string, source: string, registry: NodeRegistry): LoadResult | undefined {
  try {
    return loadWorkflow(text, catalogueLoadOptions(registry));
  } catch (error) {
    if (!(error instanceof WorkflowError)) throw error;
    showProblems({
      severity: 'error',
      title: `The workflow in ${source} was not opened`,
      summary: refusalSummary(error),
      issues: error.issues,
    });
    return undefined;
  }
}

function opened(result: LoadResult, source: string, detail: string): void {
  const title = result.workflow.metadata.title;
  if (result.warnings.length > 0) {
    showProblems({
      severity: 'warning',
      title: `Opened “${title}” from ${source}, with ${result.warnings.length === 1 ? 'a note' : `${result.warnings.length} notes`}`,
      summary: `Read these before running or sharing it. Undo brings back the workflow you had.`,
      issues: result.warnings,
    });
  } else {
    toast(`Opened “${title}” from ${source}${detail}. Undo brings back the workflow you had.`, 'success');
  }
}

export type ImageRestore = 'opened' | 'refused' | 'none';

/**
 * Opens the workflow embedded in an image file. 'none': the image carries none (the caller may
 * use it as an image instead); 'refused': it carries one that could not be opened (said why).
 */
export async function openImageWorkflow(target: RestoreTarget, file: File): Promise<ImageRestore> {
  const source = `'${file.name || 'the image'}'`;
  let content;
  try {
    content = extractWorkflow(new Uint8Array(await file.arrayBuffer()));
  } catch (error) {
    if (!(error instanceof ImageEmbedError)) throw error;
    toast(`${source} carries a workflow that cannot be read: ${error.message}. Your current workflow is unchanged.`, 'error');
    return 'refused';
  }
  if (content?.workflow === undefined) return 'none';
  const result = load(content.workflow, source, target.registry);
  if (!result) return 'refused';
  // Its images go into the asset store, as an opened file's do.
  target.restore(await internalizeImages(result.workflow, pageAssets));
  showOpened(result.workflow);
  const manifest = readImageManifest(content.manifest);
  const made = manifest
    ? ` (made by '${manifest.node.title ?? manifest.node.id}'${manifest.seed === undefined ? '' : ` with seed ${manifest.seed}`})`
    : '';
  opened(result, source, made);
  return 'opened';
}

/** Opens a run's workflow (its saved text) from the history. */
export function openRunWorkflow(target: RestoreTarget, text: string, when: string): boolean {
  const result = load(text, `the run of ${when}`, target.registry);
  if (!result) return false;
  target.restore(result.workflow);
  opened(result, `the run of ${when}`, '');
  return true;
}

/**
 * An image dropped on the canvas: its workflow opens when it carries one; any other image is
 * handed to `asImage` (the canvas adds an Image loader with it), saying why, or to `tell` instead
 * of the canvas's message when given (the App view adds nothing).
 */
export async function dropImage(target: RestoreTarget, file: File, asImage: () => void, tell?: () => void): Promise<void> {
  try {
    if ((await openImageWorkflow(target, file)) !== 'none') return;
  } catch (error) {
    toast(`'${file.name}' could not be read: ${error instanceof Error ? error.message : String(error)}`, 'error');
    return;
  }
  asImage();
  if (tell) tell();
  else toast(`'${file.name}' carries no Atelier workflow: it was added as an Image loader`, 'info');
}
