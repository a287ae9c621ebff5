/**
 * What a component instance's node offers: Open (double-click, Enter), Unpack, Face… (which inner
 * fields it shows), Save to My components, Export. Saving and exporting load their code when used.
 */
import { useEditorStore } from '../store/react';
import { toast } from '../ui/toast';
import { openEditFace } from './dialog-state';

const commands = () => import('./component-commands');

export function ComponentActions({ nodeId, title }: { nodeId: string; title: string }) {
  const store = useEditorStore();
  const report = (result: { ok: boolean; reason?: string }) => {
    if (!result.ok && result.reason) toast(result.reason, 'info');
  };
  const failed = (error: unknown) => toast(error instanceof Error ? error.message : String(error), 'error');
  return (
    <div className="component-actions nodrag">
      <button type="button" className="button small" aria-label={`Open ${title}`} title="Open it to edit its nodes: every instance changes (double-click, Enter)"
        onClick={() => report(store.openComponent(nodeId))}>Open</button>
      <button type="button" className="button small" aria-label={`Unpack ${title}`} title="Turn it back into its nodes, here"
        onClick={() => report(store.unpackComponent(nodeId))}>Unpack</button>
      <button type="button" className="button small" aria-label={`Edit face of ${title}`} title="Choose which inner fields it shows, and their labels: every instance changes"
        onClick={() => openEditFace(store, nodeId)}>Face…</button>
      <button type="button" className="button small" aria-label={`Save ${title} to My components`} title="Keep it in this browser: the palette offers it in every workflow"
        onClick={() => void commands().then(({ saveToMyComponents }) => saveToMyComponents(store, nodeId)).catch(failed)}>Save</button>
      <button type="button" className="button small" aria-label={`Export ${title}`} title="Download it as a component file (.component.json)"
        onClick={() => void commands().then(({ exportComponent }) => exportComponent(store, nodeId)).catch(failed)}>Export</button>
    </div>
  );
}
