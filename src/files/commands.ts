/**
 * What the toolbar, the shortcuts and the canvas call to open, save and read files, with a toast
 * when one fails. Asking for a file stays synchronous: the browser shows its file picker only
 * within the click or key press that asked for it.
 */
import type { EditorStore } from '../store/editor-store';
import { toast } from '../ui/toast';
import { setView } from '../appview/view-state';
import * as examples from './examples';
import type { ExampleEntry } from './examples';
import * as imageFile from './image-file';
import type { LoadedImage } from './image-file';
import * as openSave from './open-save';

/** The id of the page's file input for Open (the toolbar renders it). */
export const OPEN_INPUT_ID = 'open-workflow-file';
export const WORKFLOW_ACCEPT = '.json,application/json';

function failed(what: string): (error: unknown) => void {
  return (error) => toast(`${what}: ${error instanceof Error ? error.message : String(error)}`, 'error');
}

/** Opens a workflow file (read, checked, one undo step); true when it opened. */
export function openWorkflowFile(store: EditorStore, file: File): Promise<boolean> {
  return openSave.openWorkflowFile(store, file).catch((error: unknown) => {
    failed(`'${file.name}' was not opened`)(error);
    return false;
  });
}

/** Asks for a .json file and opens it, through the toolbar's file input. */
export function chooseAndOpen(store: EditorStore): void {
  const existing = document.getElementById(OPEN_INPUT_ID);
  if (existing instanceof HTMLInputElement) {
    existing.click();
    return;
  }
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = WORKFLOW_ACCEPT;
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) void openWorkflowFile(store, file);
  });
  input.click();
}

/** Downloads the workflow as its file, after the credential check (open-save.ts). */
export function saveWorkflow(store: EditorStore): void {
  openSave.saveWorkflow(store);
}

/** A new, empty workflow (undo brings the old one back). */
export function newWorkflow(store: EditorStore): void {
  store.newWorkflow();
  setView('graph');
  toast('New workflow. Undo (Ctrl+Z) brings the previous one back.', 'info');
}

/** The examples the server lists (public/examples/index.json); none when it lists none. */
export function fetchExamples(): Promise<ExampleEntry[]> {
  return examples.fetchExamples().catch(() => []);
}

export function openExample(store: EditorStore, entry: ExampleEntry): Promise<void> {
  return examples.openExample(store, entry).catch(failed(`The example “${entry.title}” was not opened`));
}

/** Reads an image file, or rejects with an Error saying what is wrong with it (image-file.ts). */
export function readImageFile(file: File): Promise<LoadedImage> {
  return imageFile.readImageFile(file);
}

/** Reads an image file and hands it to `set`, reporting a refused file by name. */
export function putImageFile(file: File, set: (value: LoadedImage) => void): Promise<void> {
  return imageFile.putImageFile(file, set).catch(failed(`'${file.name}' was not read`));
}
