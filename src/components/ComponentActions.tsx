/** Open and Unpack on a component instance's node (double-click or Enter opens it too). */
import { useEditorStore } from '../store/react';
import { toast } from '../ui/toast';

export function ComponentActions({ nodeId, title }: { nodeId: string; title: string }) {
  const store = useEditorStore();
  const report = (result: { ok: boolean; reason?: string }) => {
    if (!result.ok && result.reason) toast(result.reason, 'info');
  };
  return (
    <div className="component-actions nodrag">
      <button type="button" className="button small" aria-label={`Open ${title}`} title="Open it to edit its nodes: every instance changes (double-click, Enter)"
        onClick={() => report(store.openComponent(nodeId))}>Open</button>
      <button type="button" className="button small" aria-label={`Unpack ${title}`} title="Turn it back into its nodes, here"
        onClick={() => report(store.unpackComponent(nodeId))}>Unpack</button>
    </div>
  );
}
