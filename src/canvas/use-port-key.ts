/**
 * Tells React Flow to re-measure a node's handles when the ports it shows change after mount
 * (a parameter switched to "as input", a `{{name}}` typed, low-zoom drawing). Not on mount:
 * React Flow measures new nodes itself, and 500 forced measurements would stall opening a file.
 */
import { useUpdateNodeInternals } from '@xyflow/react';
import { useEffect, useRef } from 'react';

export function useRemeasureOnChange(nodeId: string, key: string): void {
  const update = useUpdateNodeInternals();
  const first = useRef(key);
  useEffect(() => {
    if (key === first.current) return;
    first.current = key;
    update(nodeId);
  }, [nodeId, key, update]);
}
