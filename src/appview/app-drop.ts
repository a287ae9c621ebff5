/**
 * A file dropped on the App view, outside an image input (which takes the picture itself): a
 * workflow file or a picture that carries one opens, as on the canvas; any other picture is not
 * added anywhere, and the person is told where it can go. Without this the browser would leave
 * the page to show the file.
 */
import type { DragEvent } from 'react';
import type { EditorStore } from '../store/editor-store';
import { openWorkflowFile } from '../files/commands';
import { isImageFile } from '../files/image-kind';
import { toast } from '../ui/toast';

const hasFiles = (e: DragEvent): boolean => [...e.dataTransfer.types].includes('Files');

/** Lets files be dropped (dragover must be refused for a drop to come). */
export function onAppDragOver(e: DragEvent): void {
  if (!hasFiles(e)) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = 'copy';
}

/** Opens a dropped workflow file or a picture's workflow; an image input that took the file first wins. */
export function onAppDrop(store: EditorStore, e: DragEvent): void {
  if (e.defaultPrevented || !hasFiles(e)) return;
  e.preventDefault();
  const files = [...e.dataTransfer.files];
  const json = files.find((f) => f.name.toLowerCase().endsWith('.json') || f.type === 'application/json');
  if (json) {
    void openWorkflowFile(store, json);
    return;
  }
  const image = files.find(isImageFile);
  if (!image) {
    toast(`Drop a workflow (.json) or an image; '${files[0]?.name ?? 'this'}' is neither`, 'warning');
    return;
  }
  const target = { registry: store.registry, restore: (workflow: Parameters<EditorStore['load']>[0]) => store.load(workflow, { record: true }) };
  void import('../history/restore').then(({ dropImage }) => dropImage(target, image, () => undefined, () => {
    toast(`'${image.name}' carries no Atelier workflow: drop it on an image input of the form, or in the graph to add an Image loader`, 'info');
  }));
}
