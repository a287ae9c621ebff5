/**
 * Save to My components, Export component and Import component: the component's file is the text
 * a download would carry (images inlined, credentials checked for first, as Save does), and what
 * comes back in goes through the workflow file's checks (workflow/component-file.ts).
 */
import { inlineImages, internalizeImages } from '../../assets/inline';
import { componentIdOf } from '../../workflow/components';
import { componentWorkflow, definitionsFor, readComponentFile } from '../../workflow/component-file';
import { WorkflowError } from '../../workflow/errors';
import { serializeWorkflow } from '../../workflow/serialize';
import { pageAssets } from '../files/assets';
import { checkBeforeExport } from '../files/export-check';
import type { EditorStore } from '../store/editor-store';
import type { XY } from '../store/state';
import { downloadBlob } from '../ui/download';
import { showProblems } from '../ui/ui-state';
import { toast } from '../ui/toast';
import { saveMyComponent } from './my-components';

/** The file text of the component node `nodeId` is an instance of, or null (cancelled, or said why). */
async function componentText(store: EditorStore, nodeId: string): Promise<{ text: string; name: string } | null> {
  const { doc, index } = store.getState();
  const node = index.nodeById.get(nodeId);
  const id = node && componentIdOf(node.type);
  const definitions = id === undefined ? [] : definitionsFor(doc.components, id);
  if (definitions.length === 0) {
    toast('Select a component whose definition is in this workflow', 'info');
    return null;
  }
  const workflow = componentWorkflow({ main: definitions[0]!, definitions });
  const checked = await checkBeforeExport(workflow, 'save', store.registry);
  if (!checked) {
    toast('Not saved: the component was not written', 'info');
    return null;
  }
  try {
    return { text: serializeWorkflow(await inlineImages(checked, pageAssets)), name: definitions[0]!.name };
  } catch (error) {
    if (error instanceof WorkflowError) showProblems({ severity: 'error', title: 'The component was not saved', summary: 'It would not open again:', issues: error.issues });
    else toast(`The component was not saved: ${error instanceof Error ? error.message : String(error)}`, 'error');
    return null;
  }
}

/** The file name a component is exported under: `restyle.component.json`. */
export function componentFileName(name: string): string {
  const stem = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'component';
  return `${stem}.component.json`;
}

/** Saves the selected instance's component to My components (this browser), for the palette. */
export async function saveToMyComponents(store: EditorStore, nodeId: string): Promise<void> {
  const made = await componentText(store, nodeId);
  if (!made) return;
  await saveMyComponent(made.text).then(
    () => toast(`'${made.name}' saved to My components: the palette offers it in every workflow`, 'success'),
    (error: unknown) => toast(`'${made.name}' was not saved to My components: ${error instanceof Error ? error.message : String(error)}`, 'error'),
  );
}

/** Downloads the selected instance's component as its own file. */
export async function exportComponent(store: EditorStore, nodeId: string): Promise<void> {
  const made = await componentText(store, nodeId);
  if (!made) return;
  downloadBlob(new Blob([made.text], { type: 'application/json' }), componentFileName(made.name));
  toast(`Exported as ${componentFileName(made.name)}`, 'success');
}

/** Reads a component file and adds an instance at `at`; a file that is not one is refused with its reasons. */
export async function importComponent(store: EditorStore, file: File, at: XY): Promise<void> {
  try {
    const pack = readComponentFile(await file.text(), { knownTypes: store.knownTypes() });
    // Images come in by reference, as when a workflow is opened.
    const definitions = (await internalizeImages(componentWorkflow(pack), pageAssets)).components ?? pack.definitions;
    store.addComponent({ main: definitions[0]!, definitions }, at, { free: true });
    toast(`Added '${pack.main.name}'`, 'success');
  } catch (error) {
    if (error instanceof WorkflowError) {
      showProblems({ severity: 'error', title: `'${file.name}' was not imported`, summary: error.message.split('\n')[0] ?? '', issues: error.issues });
    } else {
      toast(`'${file.name}' was not imported: ${error instanceof Error ? error.message : String(error)}`, 'error');
    }
  }
}
