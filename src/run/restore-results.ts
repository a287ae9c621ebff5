/**
 * Results that stay: whenever the cost estimate says the cache answers a node whose result is
 * not shown (after a reload, or on opening a workflow that ran before), the cache's result is
 * shown on it, marked as restored, without running anything; when an edit means the cache no
 * longer answers for a restored result, it is taken back, so what a node shows is what a Run
 * would give.
 */
import type { RunController } from './controller';
import type { Estimator } from './estimator';

/** Starts following the estimate; returns how to stop. */
export function restoreFromCache(controller: RunController, estimator: Estimator): () => void {
  return estimator.state.subscribe(() => {
    const current = estimator.state.get();
    if (current.status !== 'ready' || current.stale || !current.estimate.ok) return;
    const cached = new Set(current.estimate.nodes.filter((n) => n.status === 'cached').map((n) => n.nodeId));
    controller.dropRestored(cached);
    if ([...cached].some((id) => controller.state.results.get(id) === undefined)) void controller.restoreCached(current.workflow);
  });
}
