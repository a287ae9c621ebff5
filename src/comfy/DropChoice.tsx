/**
 * The small choice a dropped PNG that ComfyUI saved brings up: use its workflow as a ComfyUI
 * workflow node, or load the picture (an Image loader, as any dropped image). Escape leaves both.
 * Loaded when such a picture is first dropped (DropChoiceHost.tsx).
 */
import { Dialog } from '../ui/Dialog';
import { useEditorStore } from '../store/react';
import { pendingDropStore, type PendingDrop } from './pending-drop';

export default function ComfyDropChoice({ pending }: { pending: PendingDrop }) {
  const store = useEditorStore();
  const close = () => pendingDropStore.set(null);
  return (
    <Dialog
      title="This picture carries a ComfyUI workflow"
      onClose={close}
      footer={(
        <>
          <button type="button" className="button" onClick={() => { close(); pending.asPicture(); }}>Load the picture</button>
          <button
            type="button"
            className="button primary"
            onClick={() => {
              close();
              void import('./apply').then(({ addWorkflowNode }) => addWorkflowNode(store, pending.file, pending.at));
            }}
          >
            Use its workflow as a node
          </button>
        </>
      )}
    >
      <p>
        ‘{pending.file.name}’ was saved by ComfyUI with the workflow that made it. Use that workflow as a
        ComfyUI workflow node (it runs on a ComfyUI backend), or load the picture into an Image loader.
      </p>
    </Dialog>
  );
}
