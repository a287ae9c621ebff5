/**
 * Carries out `focusNode(nodeId, field)` (reveal.ts, fetched with the first request): the node is
 * centred and the field focused. A newer request replaces one still under way. A request for a
 * field of a collapsed node expands it first (an edit like the ▸ button's, undone the same way).
 */
import { useReactFlow } from '@xyflow/react';
import { useEffect } from 'react';
import { FIELD_ALIASES } from '../forms/field-aliases';
import type { EditorStore } from '../store/editor-store';
import type { CanvasNode } from './derive';

export function useReveal(store: EditorStore): void {
  const rf = useReactFlow<CanvasNode>();
  useEffect(() => {
    let last = store.getState().focus?.seq ?? 0;
    let stop: () => void = () => undefined;
    let live = true;
    const unsubscribe = store.subscribe(() => {
      const request = store.getState().focus;
      if (!request || request.seq === last) return;
      last = request.seq;
      if (request.field !== undefined && store.getState().index.nodeById.get(request.nodeId)?.collapsed === true) {
        store.toggleCollapsed([request.nodeId]);
      }
      void import('./reveal').then(({ reveal }) => {
        if (!live || store.getState().focus?.seq !== request.seq) return;
        stop();
        stop = reveal(rf, request, FIELD_ALIASES);
      });
    });
    return () => {
      live = false;
      unsubscribe();
      stop();
    };
  }, [store, rf]);
}
