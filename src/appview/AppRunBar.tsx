/**
 * Run, Cancel and the run's progress under the App view's form; below them, what went wrong
 * where the form cannot show it (a node that is neither an input's nor an output's), each naming
 * its node with a way to it in the graph.
 */
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { App } from '../../workflow/app';
import { formatDuration } from '../run/format';
import { useBatchProgress, useRunContext, useRunOverview } from '../run/context';
import { useEditor } from '../store/react';

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return <>{formatDuration(Math.max(0, now - since))}</>;
}

interface Tally {
  done: number;
  /** Failures of nodes the form and the gallery do not show: [node id, message]. */
  failures: [string, string][];
}

/** How many of `ids` finished this run, and the failures among `hidden`, read from the run's status. */
function useTally(ids: readonly string[], hidden: ReadonlySet<string>): Tally {
  const { status } = useRunContext().controller.state;
  const subscribe = useCallback((listener: () => void) => {
    const stops = ids.map((id) => status.subscribe(id, listener));
    return () => stops.forEach((stop) => stop());
  }, [status, ids]);
  // A string snapshot: it only changes when what is shown does.
  const snapshot = useSyncExternalStore(subscribe, () => {
    let done = 0;
    const failures: [string, string][] = [];
    for (const id of ids) {
      const s = status.get(id);
      if (!s) continue;
      if (s.phase === 'done' || s.phase === 'cached' || s.phase === 'bypassed' || s.phase === 'failed' || s.phase === 'skipped') done++;
      if (s.phase === 'failed' && hidden.has(id)) failures.push([id, s.error?.message ?? 'failed']);
    }
    return JSON.stringify({ done, failures });
  });
  return JSON.parse(snapshot) as Tally;
}

export function AppRunBar({ app }: { app: App }) {
  const { queue, describeNode, focusNode } = useRunContext();
  const overview = useRunOverview();
  const batch = useBatchProgress();
  const nodeIds = useEditor((s) => s.doc.nodes.map((n) => n.id).join('\n'));
  const ids = useMemo(() => (nodeIds === '' ? [] : nodeIds.split('\n')), [nodeIds]);
  // Nodes whose trouble the form or the gallery already shows.
  const shown = useMemo(() => new Set([...app.inputs.map((i) => i.node), ...app.outputs.map((o) => o.node)]), [app]);
  const hidden = useMemo(() => new Set(ids.filter((id) => !shown.has(id))), [ids, shown]);
  const tally = useTally(ids, hidden);
  const running = overview.running || batch !== undefined;
  const elsewhere = overview.problems.filter((p) => !app.inputs.some((i) => i.node === p.nodeId && i.param === p.field) && !app.outputs.some((o) => o.node === p.nodeId));

  return (
    <div className="app-run">
      <div className="app-run__buttons">
        <button type="submit" className="button primary app-run__run" disabled={running}>
          <span aria-hidden="true">▶ </span>Run
        </button>
        <button type="button" className="button" onClick={() => queue.cancel()} disabled={!running}>Cancel</button>
        <span className="app-run__state" role="status">
          {overview.running && overview.startedAt !== undefined
            ? <>Running… <Elapsed since={overview.startedAt} /> · {tally.done} of {ids.length} steps done</>
            : ''}
        </span>
      </div>
      {overview.error !== undefined && <p className="field-issue" role="alert">Could not run: {overview.error}</p>}
      {(elsewhere.length > 0 || tally.failures.length > 0) && (
        <ul className="app-run__problems" aria-label="Problems in the graph">
          {elsewhere.map((p, i) => (
            <li key={`p${i}`}>
              <button type="button" className="run-link" onClick={() => focusNode(p.nodeId, p.field)}>
                <strong>{describeNode(p.nodeId).label}</strong>: {p.message}
              </button>
            </li>
          ))}
          {tally.failures.map(([id, message]) => (
            <li key={`f${id}`}>
              <button type="button" className="run-link" onClick={() => focusNode(id)}>
                <strong>{describeNode(id).label}</strong> failed: {message}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
