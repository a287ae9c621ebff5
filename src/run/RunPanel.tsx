/**
 * The run panel: Run (as many times as the batch count beside it says), Cancel, the batch's
 * progress, what the next run will cost, the validation problems of a refused run listed
 * together (each a button to its node and field), a pool's servers, the last run's summary and the
 * session's totals.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import EstimateView from './EstimateView';
import { ServersView } from './ServersView';
import { SessionTotals } from './SessionTotals';
import { useBatchProgress, useLastBatch, useRunContext, useRunCount, useRunOverview, useSessionUsage } from './context';
import { MOD } from '../canvas/mod-key';
import { openSidePanel } from '../ui/side-panel-state';
import { formatDuration, plural } from './format';
import './run.css';

/** The last run's summary loads when a run first ends. */
const RunSummary = lazy(() => import('./RunSummary').then((m) => ({ default: m.RunSummary })));

/** The most runs one batch queues. */
export const MAX_RUN_COUNT = 100;

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return <>{formatDuration(Math.max(0, now - since))}</>;
}

function RunCount({ disabled }: { disabled: boolean }) {
  const { runCount } = useRunContext();
  const count = useRunCount();
  const [draft, setDraft] = useState(String(count));
  useEffect(() => setDraft(String(count)), [count]);
  const commit = (text: string) => {
    const n = Math.round(Number(text));
    const next = Number.isFinite(n) ? Math.min(MAX_RUN_COUNT, Math.max(1, n)) : count;
    runCount.set(next);
    setDraft(String(next));
  };
  return (
    <label className="run-panel__count" title={`Run the workflow this many times in a row (1 to ${MAX_RUN_COUNT}); seeds move on between runs as each node's "After each run" says`}>
      ×
      <input
        type="number"
        min={1}
        max={MAX_RUN_COUNT}
        step={1}
        value={draft}
        disabled={disabled}
        aria-label="Number of runs"
        onChange={(e) => {
          setDraft(e.target.value);
          if (e.target.value !== '' && Number(e.target.value) >= 1) commit(e.target.value);
        }}
        onBlur={(e) => commit(e.target.value)}
      />
    </label>
  );
}

export function RunPanel() {
  const { start, queue, focusNode, describeNode } = useRunContext();
  const overview = useRunOverview();
  const batch = useBatchProgress();
  const lastBatch = useLastBatch();
  const count = useRunCount();
  const sessionRuns = useSessionUsage().runs;
  const { problems, summary, error } = overview;
  const running = overview.running || batch !== undefined;
  // A collapsed panel opens to show why a run could not start.
  const refused = problems.length > 0 || error !== undefined;
  useEffect(() => {
    if (refused) openSidePanel();
  }, [refused]);

  return (
    <section className="run-panel" aria-label="Run">
      <div className="run-panel__buttons">
        <button type="button" className="button primary run-panel__run" onClick={() => start({ mode: 'all' })} disabled={running} aria-keyshortcuts="Control+Enter" title={`Run the workflow (${MOD}+Enter)`}>
          <span aria-hidden="true">▶ </span>Run
        </button>
        <RunCount disabled={running} />
        <button type="button" className="button run-panel__cancel" onClick={() => queue.cancel()} disabled={!running} aria-keyshortcuts="Escape" title="Cancel the run (Escape)">
          Cancel
        </button>
        <span className="run-panel__state" role="status">
          {batch && batch.count > 1 && <span aria-label="Batch progress">{batch.index} / {batch.count} </span>}
          {overview.running && overview.startedAt !== undefined ? <>Running… <Elapsed since={overview.startedAt} /></> : ''}
        </span>
      </div>
      {error !== undefined && (
        <p className="run-panel__error" role="alert">
          Could not run: {error}
        </p>
      )}
      {problems.length > 0 && (
        <section className="run-problems" aria-label="Problems to fix before running" aria-live="assertive">
          <h2 className="run-panel__heading">{plural(problems.length, 'problem')} to fix before running</h2>
          <ul>
            {problems.map((p, i) => (
              <li key={i}>
                <button type="button" className="run-link" onClick={() => focusNode(p.nodeId, p.field)}>
                  <strong>{describeNode(p.nodeId).label}</strong>: {p.message}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <ServersView />
      {!running && (
        <EstimateView count={count} />
      )}
      {!overview.running && summary && <Suspense fallback={null}><RunSummary summary={summary} batch={lastBatch} /></Suspense>}
      {sessionRuns > 0 && <SessionTotals />}
    </section>
  );
}
