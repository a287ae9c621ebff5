/**
 * Edit face (an instance's "Face…" button): which inner fields the component's face shows, and
 * their labels, with the same picker as Make component. Saving is one undo step; every instance
 * follows. Loaded when first opened (ComponentDialogs.tsx).
 */
import { useMemo, useState } from 'react';
import { useEditor, useEditorStore } from '../store/react';
import { Dialog } from '../ui/Dialog';
import { FacePicker, pickedParams } from './FacePicker';
import { faceChoices } from './shown-choices';

export default function EditFaceDialog({ componentId, onClose }: { componentId: string; onClose: () => void }) {
  const store = useEditorStore();
  const def = useEditor((s) => s.doc.components?.find((c) => c.id === componentId));
  // The choices of the definition as the dialog opened: an edit elsewhere meanwhile does not reshuffle them.
  const [start] = useState(() => (def ? faceChoices(def, store.registry) : undefined));
  const [shown, setShown] = useState<ReadonlyMap<string, string>>(() => start?.shown ?? new Map());
  const [error, setError] = useState<string | null>(null);
  const choices = useMemo(() => start?.choices ?? [], [start]);
  if (!def || !start) {
    return (
      <Dialog title="Edit face" onClose={onClose} footer={<button type="button" className="button" onClick={onClose}>Close</button>}>
        <p role="alert">The component &apos;{componentId}&apos; is no longer in this workflow.</p>
      </Dialog>
    );
  }

  const save = () => {
    const result = store.setComponentFace(componentId, pickedParams(choices, shown));
    if (!result.ok) return setError(result.reason);
    onClose();
  };

  return (
    <Dialog
      title={`Edit face of ${def.name}`}
      className="make-component-dialog"
      onClose={onClose}
      footer={(
        <>
          <button type="button" className="button" onClick={onClose}>Cancel</button>
          <button type="submit" form="edit-face-form" className="button primary">Save face</button>
        </>
      )}
    >
      <form id="edit-face-form" onSubmit={(e) => { e.preventDefault(); save(); }}>
        <p className="muted">Every instance of {def.name} shows these fields; a field taken off loses the values instances had set for it.</p>
        {error && <p role="alert" className="field-error">{error}</p>}
        <FacePicker choices={choices} shown={shown} onChange={setShown} />
      </form>
    </Dialog>
  );
}
