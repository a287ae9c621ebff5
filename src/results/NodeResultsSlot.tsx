/**
 * What each node draws for its results: nothing until the node has a result, then the results
 * view, loaded with the first one (with its viewer, downloads and seed pinning), so a fresh page
 * does not carry them.
 */
import { lazy, Suspense } from 'react';
import { useNodeResult } from '../run/context';

const NodeResultsView = lazy(() => import('./NodeResults').then((m) => ({ default: m.NodeResults })));

export function NodeResults({ nodeId }: { nodeId: string }) {
  const result = useNodeResult(nodeId);
  if (!result) return null;
  return (
    <Suspense fallback={null}>
      <NodeResultsView nodeId={nodeId} />
    </Suspense>
  );
}
