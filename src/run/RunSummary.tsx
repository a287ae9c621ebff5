/** The last run's summary in the run panel: what it made, what the cache saved, what failed. */
import type { RunSummary as Summary } from '../../workers/events';
import { chatTokensText, formatDuration, plural } from './format';

const OUTCOME: Record<Summary['status'], string> = {
  succeeded: 'Run finished',
  failed: 'Run finished with failures',
  cancelled: 'Run cancelled',
  invalid: 'Run refused: nothing was sent',
};

export function RunSummary({ summary }: { summary: Summary }) {
  const { nodes } = summary;
  return (
    <section className={`run-summary run-summary--${summary.status}`} aria-label="Last run" data-run-id={summary.runId}>
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
          {summary.apiCallsSaved > 0 && (
            <>
              <dt>Calls saved by the cache</dt>
              <dd>{summary.apiCallsSaved}</dd>
            </>
          )}
          {summary.usage.images > 0 && (
            <>
              <dt>Images made</dt>
              <dd>{summary.usage.images} ({plural(summary.usage.priceUnits, 'price unit')})</dd>
            </>
          )}
          {summary.usage.chatCalls > 0 && (
            <>
              <dt>Chat tokens</dt>
              <dd title={chatTokensText(summary.usage).title}>{chatTokensText(summary.usage).text}</dd>
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
