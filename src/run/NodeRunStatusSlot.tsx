/**
 * What each node draws for its run status: nothing until the node has one, then the status view
 * (NodeRunStatus.tsx), fetched when the person starts working (and awaited by a run before it
 * sends anything) rather than with the first paint. Until then a node only listens for a status
 * of its own.
 */
import { lazy, Suspense, useCallback, useSyncExternalStore } from 'react';
import { useRunContext } from './context';

const load = () => import('./NodeRunStatus');
const NodeRunStatusView = lazy(() => load().then((m) => ({ default: m.NodeRunStatus })));

/**
 * Fetches the status view: when the person starts working, and again (a no-op by then) before a
 * run starts, which waits for it. A failed fetch does not stop the run; the view is asked for again
 * when a node first has a status.
 */
export function preloadNodeRunStatus(): Promise<void> {
  return load().then(() => undefined, () => undefined);
}

export function NodeRunStatus({ nodeId }: { nodeId: string }) {
  const { status } = useRunContext().controller.state;
  const subscribe = useCallback((listener: () => void) => status.subscribe(nodeId, listener), [status, nodeId]);
  const shown = useSyncExternalStore(subscribe, () => status.get(nodeId) !== undefined);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <NodeRunStatusView nodeId={nodeId} />
    </Suspense>
  );
}
