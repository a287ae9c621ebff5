/**
 * Text from the system clipboard (or a file) read as nodes: through the workflow loader, like an
 * opened file.
 */
import type { NodeRegistry } from '../../nodes/index';
import { WorkflowError, type WorkflowWarning } from '../../workflow/errors';
import { loadWorkflow } from '../../workflow/load';
import type { Workflow } from '../../workflow/schema';
import { internalizeImages } from '../../assets/inline';
import { pageAssets } from '../files/assets';

export type ParsedPaste = { ok: true; workflow: Workflow; warnings: WorkflowWarning[] } | { ok: false; reason: string };

export function parsePaste(text: string, registry: NodeRegistry): ParsedPaste {
  if (text.trim() === '') return { ok: false, reason: 'the clipboard is empty' };
  try {
    const { workflow, warnings } = loadWorkflow(text, { knownTypes: new Set(registry.list().map((d) => d.type)) });
    return { ok: true, workflow, warnings };
  } catch (error) {
    const first = error instanceof WorkflowError ? error.issues[0] : undefined;
    const detail = first ? `${first.path}: ${first.message}` : error instanceof Error ? error.message : String(error);
    return { ok: false, reason: `the clipboard does not hold Atelier nodes (${detail})` };
  }
}

/** `parsePaste`, with the pasted pictures put into the asset store, as an opened file's are. */
export async function parsePasteToStore(text: string, registry: NodeRegistry): Promise<ParsedPaste> {
  const parsed = parsePaste(text, registry);
  return parsed.ok ? { ...parsed, workflow: await internalizeImages(parsed.workflow, pageAssets) } : parsed;
}
