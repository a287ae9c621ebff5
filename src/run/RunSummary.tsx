/**
 * The last run's summary in the run panel: what it made, what the cache saved, what failed; after
 * a batch, also what the whole batch made (the figures below it are the last run's).
 */
import { reportedMoneyText } from '../../api/usage';
import type { RunSummary as Summary } from '../../workers/events';
import { chatTokensText, formatDuration, plural } from './format';
import type { BatchRecord } from './queue';

const OUTCOME: Record<Summary['status'], string> = {
  succeeded: 'Run finished',
  failed: 'Run finished with failures',
  cancelled: 'Run cancelled',
  invalid: 'Run refused: nothing was sent',
};

/** One line on a whole batch: runs made of those asked for, calls, images, time. */
export function batchText(batch: BatchRecord): string {
  const { summaries, count } = batch;
  const sum = (pick: (s: Summary) => number) => summaries.reduce((total, s) => total + pick(s), 0);
  const made = summaries.filter((s) => s.status !== 'invalid' && s.status !== 'cancelled').length;
  const failed = summaries.filter((s) => s.status === 'failed').length;
  const images = sum((s) => s.usage.images);
  const parts = [
    made === count ? `Batch of ${count} runs` : `Batch stopped after ${made} of ${count} runs`,
    plural(sum((s) => s.apiCalls), 'call'),
    ...(images > 0 ? [`${plural(images, 'image')} (${plural(sum((s) => s.usage.priceUnits), 'price unit')})`] : []),
    ...(failed > 0 ? [`${failed} with failures`] : []),
    `${formatDuration(sum((s) => s.durationMs))} in all`,
  ];
  return `${parts.join(', ')}. The figures below are the last run's.`;
}

export function RunSummary({ summary, batch }: { summary: Summary; batch?: BatchRecord | undefined }) {
  const { nodes } = summary;
  const ofBatch = batch !== undefined && summary.status !== 'invalid' && batch.summaries.at(-1)?.runId === summary.runId;
  return (
    <section className={`run-summary run-summary--${summary.status}`} aria-label="Last run" data-run-id={summary.runId}>
      <h2 className="run-panel__heading">{OUTCOME[summary.status]}</h2>
      {ofBatch && <p className="run-summary__batch">{batchText(batch)}</p>}
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
          {reportedMoneyText(summary.usage) !== undefined && (
            <>
              <dt>Money</dt>
              <dd title="What the image backends reported for their answers, not an estimate: the Gemini API's tokens at Google's published prices, Replicate's images at its published price per image, or the GPU seconds a time-billed model ran">{reportedMoneyText(summary.usage)}</dd>
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
