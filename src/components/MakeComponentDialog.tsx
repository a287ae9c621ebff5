/**
 * Make component (Ctrl+Shift+G, the selection's context menu, Canvas tools): a small dialog that
 * names the component and picks which inner fields its face shows, each under a label of its own.
 * Confirming replaces the selected nodes by one instance, as one undo step.
 */
import { useMemo, useState } from 'react';
import type { EditorStore } from '../store/editor-store';
import { itemOf } from '../store/frames';
import { useEditorStore } from '../store/react';
import { Dialog } from '../ui/Dialog';
import { createSmallStore, useSmallStore } from '../ui/small-store';
import { toast } from '../ui/toast';
import { shownChoices } from './shown-choices';

/** The nodes the open dialog makes a component of; null when it is closed. */
export const makeComponentStore = createSmallStore<readonly string[] | null>(null);

/** Opens the dialog for the selected nodes, or says why it cannot. */
export function openMakeComponent(store: EditorStore): void {
  const { selection, index } = store.getState();
  const nodes = [...selection.nodes].filter((id) => itemOf(id).kind === 'node' && index.nodeById.has(id));
  if (nodes.length === 0) {
    toast('Select the nodes to make a component of first', 'info');
    return;
  }
  makeComponentStore.set(nodes);
}

function MakeComponentForm({ nodes, onClose }: { nodes: readonly string[]; onClose: () => void }) {
  const store = useEditorStore();
  const choices = useMemo(() => {
    const { index } = store.getState();
    return shownChoices(nodes.flatMap((id) => index.nodeById.get(id) ?? []), store.registry);
  }, [store, nodes]);
  const [name, setName] = useState('Component');
  const [shown, setShown] = useState<ReadonlyMap<string, string>>(() => new Map());
  const [error, setError] = useState<string | null>(null);

  const make = () => {
    const result = store.makeComponent({
      name,
      nodes,
      shown: choices.filter((c) => shown.has(c.name)).map(({ name: face, node, param }) => ({ name: face, node, param, label: shown.get(face) || face })),
    });
    if (!result.ok) return setError(result.reason);
    onClose();
  };

  return (
    <Dialog
      title="Make component"
      className="make-component-dialog"
      onClose={onClose}
      footer={(
        <>
          <button type="button" className="button" onClick={onClose}>Cancel</button>
          <button type="submit" form="make-component-form" className="button primary">Make component</button>
        </>
      )}
    >
      <form id="make-component-form" onSubmit={(e) => { e.preventDefault(); make(); }}>
        <p className="muted">{nodes.length} node{nodes.length === 1 ? '' : 's'} become one; the wires crossing the selection&apos;s border become its ports.</p>
        <label className="field-row">
          <span>Name</span>
          <input type="text" value={name} autoFocus onChange={(e) => setName(e.target.value)} aria-invalid={error !== null} />
        </label>
        {error && <p role="alert" className="field-error">{error}</p>}
        <fieldset className="make-component-shown">
          <legend>Fields shown on the component</legend>
          {choices.length === 0 && <p className="muted">These nodes have no fields to show.</p>}
          {choices.map((choice) => (
            <div key={choice.name} className="make-component-choice">
              <label>
                <input
                  type="checkbox"
                  checked={shown.has(choice.name)}
                  onChange={(e) => setShown((before) => {
                    const next = new Map(before);
                    if (e.target.checked) next.set(choice.name, choice.label);
                    else next.delete(choice.name);
                    return next;
                  })}
                />
                {' '}{choice.description}
              </label>
              {shown.has(choice.name) && (
                <input
                  type="text"
                  aria-label={`Label of ${choice.description}`}
                  value={shown.get(choice.name)}
                  onChange={(e) => setShown((before) => new Map(before).set(choice.name, e.target.value))}
                />
              )}
            </div>
          ))}
        </fieldset>
      </form>
    </Dialog>
  );
}

/** The dialog while it is open (mounted by the canvas). */
export function MakeComponentDialog() {
  const nodes = useSmallStore(makeComponentStore);
  if (nodes === null) return null;
  return <MakeComponentForm nodes={nodes} onClose={() => makeComponentStore.set(null)} />;
}
