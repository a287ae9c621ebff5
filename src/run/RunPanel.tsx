/**
 * The run panel: Run and Cancel, the validation problems of a refused run listed together (each
 * a button to its node and field), and the last run's summary.
 */
import { useEffect, useState } from 'react';
import type { RunSummary } from '../../workers/events';
import { useRunContext, useRunOverview } from './context';
import { formatDuration, plural } from './format';
import './run.css';

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return <>{formatDuration(Math.max(0, now - since))}</>;
}

const OUTCOME: Record<RunSummary['status'], string> = {
  succeeded: 'Run finished',
  failed: 'Run finished with failures',
  cancelled: 'Run cancelled',
  invalid: 'Run refused: nothing was sent',
};

function Summary({ summary }: { summary: RunSummary }) {
  const { nodes } = summary;
  return (
    <section className={`run-summary run-summary--${summary.status}`} aria-label="Last run">
      <h2 className="run-panel__heading">{OUTCOME[summary.status]}</h2>
      {summary.status !== 'invalid' && (
        <dl className="run-summary__figures">
          <dt>Calls made</dt>
          <dd>{summary.apiCalls}</dd>
          <dt>Cached</dt>
          <dd>
            {plural(nodes.cached, 'node')}
            {summary.apiCallsSaved > 0 && ` (${plural(summary.apiCallsSaved, 'call')} saved)`}
          </dd>
          {summary.usage.images > 0 && (
            <>
              <dt>Images made</dt>
              <dd>{summary.usage.images} ({plural(summary.usage.priceUnits, 'price unit')})</dd>
            </>
          )}
          {summary.usage.chatTokens.total > 0 && (
            <>
              <dt>Chat tokens</dt>
              <dd>{summary.usage.chatTokens.total}{summary.usage.chatCallsWithoutUsage > 0 && ' or more'}</dd>
            </>
          )}
          {nodes.bypassed > 0 && (
            <>
              <dt>Bypassed</dt>
              <dd>{plural(nodes.bypassed, 'node')}</dd>
            </>
          )}
          <dt>Failed</dt>
          <dd>{plural(nodes.failed, 'node')}{nodes.skipped > 0 && `, ${nodes.skipped} skipped`}</dd>
          {nodes.cancelled > 0 && (
            <>
              <dt>Cancelled</dt>
              <dd>{plural(nodes.cancelled, 'node')}</dd>
            </>
          )}
          <dt>Duration</dt>
          <dd>{formatDuration(summary.durationMs)}</dd>
        </dl>
      )}
      {summary.warnings.length > 0 && (
        <ul className="run-summary__warnings">
          {summary.warnings.map((w, i) => <li key={i}>{w}</li>)}
        </ul>
      )}
    </section>
  );
}

export function RunPanel() {
  const { start, controller, focusNode, describeNode } = useRunContext();
  const overview = useRunOverview();
  const { running, problems, summary, error } = overview;

  return (
    <section className="run-panel" aria-label="Run">
      <div className="run-panel__buttons">
        <button type="button" className="run-panel__run" onClick={() => start({ mode: 'all' })} disabled={running} aria-keyshortcuts="Control+Enter">
          Run
        </button>
        <button type="button" onClick={() => controller.cancel()} disabled={!running} aria-keyshortcuts="Escape">
          Cancel
        </button>
        <span className="run-panel__state" role="status">
          {running && overview.startedAt !== undefined ? <>Running… <Elapsed since={overview.startedAt} /></> : ''}
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
      {!running && summary && <Summary summary={summary} />}
    </section>
  );
}
