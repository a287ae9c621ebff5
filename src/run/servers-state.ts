/**
 * What the run panel shows of a pool's servers: the last report of each pool (servers by label,
 * never an address), as the `pool-status` events of the runs bring them. A pool is known by the
 * engines it serves, so the same servers reported again replace their row, in place.
 */
import type { ServerStatus } from '../../api/client-types';
import type { ExecutorEvent } from '../../workers/events';

/** One pool as last reported. */
export interface PoolView {
  /** The engines it serves, joined: what tells two pools apart. */
  key: string;
  /** The backend's name (ComfyUI). */
  pool: string;
  engines: string[];
  servers: ServerStatus[];
}

type PoolStatusEvent = Extract<ExecutorEvent, { type: 'pool-status' }>;

/** `pools` with `event`'s report in its place (a new pool goes last). */
export function withPoolStatus(pools: readonly PoolView[], event: PoolStatusEvent): PoolView[] {
  const key = event.engines.join(',') || event.pool;
  const view: PoolView = { key, pool: event.pool, engines: [...event.engines], servers: event.servers.map((s) => ({ ...s })) };
  const at = pools.findIndex((p) => p.key === key);
  return at < 0 ? [...pools, view] : pools.map((p, i) => (i === at ? view : p));
}
