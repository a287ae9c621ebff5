/**
 * Make component (Ctrl+Shift+G, the selection's context menu, Canvas tools): a small dialog that
 * names the component and picks which inner fields its face shows, each under a label of its own.
 * Confirming replaces the selected nodes by one instance, as one undo step. Loaded when first
 * opened (ComponentDialogs.tsx).
 */
import { useMemo, useState } from 'react';
import { useEditorStore } from '../store/react';
import { Dialog } from '../ui/Dialog';
import { FacePicker, pickedParams } from './FacePicker';
import { shownChoices } from './shown-choices';

export default function MakeComponentDialog({ nodes, onClose }: { nodes: readonly string[]; onClose: () => void }) {
  const store = useEditorStore();
  const choices = useMemo(() => {
    const { index } = store.getState();
    return shownChoices(nodes.flatMap((id) => index.nodeById.get(id) ?? []), store.registry);
  }, [store, nodes]);
  const [name, setName] = useState('Component');
  const [shown, setShown] = useState<ReadonlyMap<string, string>>(() => new Map());
  const [error, setError] = useState<string | null>(null);

  const make = () => {
    const result = store.makeComponent({ name, nodes, shown: pickedParams(choices, shown) });
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
        <FacePicker choices={choices} shown={shown} onChange={setShown} />
      </form>
    </Dialog>
  );
}
