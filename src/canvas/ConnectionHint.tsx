/** Why the wire being drawn cannot be made, shown beside the pointer (the store's connection check). */
import { useConnection } from '@xyflow/react';
import { useEditorStore } from '../store/react';
import { refusal } from './connect-handlers';

/** Why the wire under the pointer cannot be made, beside the pointer, while it is drawn. */
export function ConnectionHint() {
  const store = useEditorStore();
  const connection = useConnection();
  if (!connection.inProgress || connection.isValid !== false || !connection.toHandle) return null;
  const reason = refusal(store, connection.fromHandle, connection.toHandle);
  if (!reason) return null;
  return (
    <div className="connection-hint" role="status" style={{ left: connection.pointer.x + 16, top: connection.pointer.y + 16 }}>
      {reason}
    </div>
  );
}
