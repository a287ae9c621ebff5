/**
 * The servers of each pool (several GPUs as one backend), as the last run reported them: for
 * each server by its label, the requests of this editor it is running, its own queue, whether it
 * is down (since when, and when it is tried again) and the images it made this session. Never
 * an address: the reports carry labels only.
 */
import { useSyncExternalStore } from 'react';
import type { ServerStatus } from '../../api/client-types';
import { useRunContext } from './context';
import type { PoolView } from './servers-state';

const clock = (ms: number) => new Date(ms).toLocaleTimeString();

/** A server's state in words: down (since, next try), busy or idle. */
export function serverState(server: ServerStatus): string {
  if (server.down) {
    const since = server.downSince === undefined ? '' : ` since ${clock(server.downSince)}`;
    const next = server.retryAt === undefined ? '' : `, retrying at ${clock(server.retryAt)}`;
    return `down${since}${next}`;
  }
  return server.inFlight > 0 || server.queued > 0 ? 'busy' : 'idle';
}

function Pool({ pool }: { pool: PoolView }) {
  const name = `Servers of ${pool.pool}${pool.engines.length > 0 ? ` (${pool.engines.join(', ')})` : ''}`;
  return (
    <table className="run-servers__table" aria-label={name}>
      <caption className="run-servers__caption">{name}</caption>
      <thead>
        <tr>
          <th scope="col">Server</th>
          <th scope="col" title="Requests of this editor it is running or holds in its queue">In flight</th>
          <th scope="col" title="Other work in the server's own queue">Queued</th>
          <th scope="col" title="Images it made this session">Images</th>
          <th scope="col">State</th>
        </tr>
      </thead>
      <tbody>
        {pool.servers.map((server) => (
          <tr key={server.label} className={server.down ? 'run-servers__down' : undefined}>
            <th scope="row">{server.label}</th>
            <td>{server.inFlight}</td>
            <td>{server.queued}</td>
            <td>{server.made}</td>
            <td>{serverState(server)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Whether a pool has done anything worth a row: engines routed to the same servers may each hold
 * a pool of their own, and those a run never used would only repeat the servers, idle.
 */
export function poolInUse(pool: PoolView): boolean {
  return pool.servers.some((s) => s.inFlight > 0 || s.queued > 0 || s.made > 0 || s.down);
}

/** Every pool the runs reported that has been used; nothing when no run has gone to a pool. */
export function ServersView() {
  const { pools } = useRunContext().controller.state;
  const all = useSyncExternalStore(pools.subscribe, pools.get);
  const list = all.filter(poolInUse);
  if (list.length === 0) return null;
  return (
    <section className="run-servers" aria-label="Servers">
      <h2 className="run-panel__heading">Servers</h2>
      {list.map((pool) => <Pool key={pool.key} pool={pool} />)}
    </section>
  );
}
