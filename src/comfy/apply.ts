/**
 * Puts a chosen workflow file on a ComfyUI workflow node (the inspector's "Choose workflow file…")
 * or on a new one (a file dropped on the canvas). A refusal is a toast with its one-line reason and
 * changes nothing; what the import changed (a credential emptied) is said too.
 */
import { PipelineError } from '../../api/backends/comfyui/pipeline/model';
import type { ObjectInfo } from '../../api/backends/comfyui/pipeline/object-info';
import type { EditorStore } from '../store/editor-store';
import type { XY } from '../store/state';
import { settingsStore } from '../settings/settings-store';
import { createSmallStore } from '../ui/small-store';
import { toast } from '../ui/toast';
import { askObjectInfo, chooseWorkflow, comfyServer, type ChosenWorkflow } from './choose';

/** The node list of the last ComfyUI server reached, for the inputs' types and choices in the list. */
export const objectInfoStore = createSmallStore<ObjectInfo | undefined>(undefined);

const FIX_UI = 'In ComfyUI, use Export (API) (Workflow menu) and choose that file, or start the ComfyUI server in Settings → Image backend.';

/** Reads a file for a node; undefined (and a toast saying why) when it is refused. */
export async function readChosen(file: File, fetcher: typeof fetch = fetch): Promise<ChosenWorkflow | undefined> {
  const name = file.name || 'the file';
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const chosen = await chooseWorkflow(bytes, name, () => {
      const settings = settingsStore.get();
      return askObjectInfo(comfyServer(settings.imageBackends, settings.backendCredentials), fetcher);
    });
    if (chosen.info !== undefined) objectInfoStore.set(chosen.info);
    for (const note of chosen.imported.notes) toast(`'${name}': ${note}`, 'warning');
    return chosen;
  } catch (error) {
    if (!(error instanceof PipelineError)) throw error;
    const ui = /UI-format workflow needs/.test(error.message);
    toast(`'${name}' was not used as a ComfyUI workflow: ${error.message}.${ui ? ` ${FIX_UI}` : ''} Nothing was changed.`, 'error');
    return undefined;
  }
}

/**
 * Replaces a node's workflow by the file's, with the default choice of inputs, and removes the
 * wires to ports the new workflow does not have, all as one undo step; the toast says how many.
 */
export async function chooseForNode(store: EditorStore, nodeId: string, file: File, read: (file: File) => Promise<ChosenWorkflow | undefined> = readChosen): Promise<boolean> {
  const chosen = await read(file);
  if (chosen === undefined) return false;
  const p = chosen.params;
  const removed = store.setParamsPruningWires(nodeId, {
    pipeline: p.pipeline, hash: p.hash, source: p.source, fields: p.fields, outputs: p.outputs, values: p.values, seed_modes: p.seed_modes,
  }, 'choose ComfyUI workflow');
  const wires = removed === 0 ? '' : `; ${removed === 1 ? '1 wire' : `${removed} wires`} to ports it does not have ${removed === 1 ? 'was' : 'were'} removed (Undo brings ${removed === 1 ? 'it' : 'them'} back)`;
  toast(`'${file.name}': ${p.pipeline.nodes.length} ComfyUI nodes, ${p.fields.length} inputs chosen, ${p.outputs.length} outputs${wires}`, removed === 0 ? 'success' : 'warning');
  return true;
}

/** Adds a ComfyUI workflow node made from the file at `at` (near it, where there is room). */
export async function addWorkflowNode(store: EditorStore, file: File, at: XY): Promise<string | undefined> {
  const chosen = await readChosen(file);
  if (chosen === undefined) return undefined;
  return store.addNode('comfy-workflow', at, { params: chosen.params, free: true });
}
