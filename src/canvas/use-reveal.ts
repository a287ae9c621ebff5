/**
 * Carries out `focusNode(nodeId, field)` (reveal.ts): the node is centred and the field focused.
 * A newer request replaces one still under way. A request for a field of a collapsed node
 * expands it first (an edit like the ▸ button's, undone the same way).
 */
import { useReactFlow } from '@xyflow/react';
import { useEffect } from 'react';
import { FIELD_ALIASES } from '../forms/field-aliases';
import type { EditorStore } from '../store/editor-store';
import type { CanvasNode } from './derive';
import { reveal } from './reveal';

export function useReveal(store: EditorStore): void {
  const rf = useReactFlow<CanvasNode>();
  useEffect(() => {
    let last = store.getState().focus?.seq ?? 0;
    let stop: () => void = () => undefined;
    const unsubscribe = store.subscribe(() => {
      const request = store.getState().focus;
      if (!request || request.seq === last) return;
      last = request.seq;
      if (request.field !== undefined && store.getState().index.nodeById.get(request.nodeId)?.collapsed === true) {
        store.toggleCollapsed([request.nodeId]);
      }
      stop();
      stop = reveal(rf, request, FIELD_ALIASES);
    });
    return () => {
      unsubscribe();
      stop();
    };
  }, [store, rf]);
}
