/**
 * NodeResizer callbacks for a note or group: the frame follows the pointer from UI state while
 * the resize goes on, and becomes one undo step when it ends.
 */
import type { OnResize, OnResizeEnd, OnResizeStart } from '@xyflow/react';
import { useMemo } from 'react';
import { useEditorStore } from '../store/react';

export function useFrameResize(canvasId: string): { onResizeStart: OnResizeStart; onResize: OnResize; onResizeEnd: OnResizeEnd } {
  const store = useEditorStore();
  return useMemo(() => {
    const rect = (p: { x: number; y: number; width: number; height: number }) => ({ x: p.x, y: p.y, width: p.width, height: p.height });
    return {
      onResizeStart: (_event, params) => store.setResize({ id: canvasId, rect: rect(params) }),
      onResize: (_event, params) => store.setResize({ id: canvasId, rect: rect(params) }),
      onResizeEnd: (_event, params) => store.resizeItem(canvasId, rect(params)),
    };
  }, [store, canvasId]);
}
