/**
 * The run status on a node: queued, running (elapsed time, progress, retries), done, cached,
 * failed with the service's message pinned, skipped because of an upstream failure, cancelled,
 * or refused by validation; and the chat text as it streams in.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNodeResult, useNodeRunState, useRunContext } from './context';
import { describeItems, formatDuration, plural, restoredText } from './format';
import type { NodeRunState } from './run-state';
import './run.css';

/** Elapsed time since `startedAt`, ticking ten times a second while `active`. */
function useElapsed(startedAt: number | undefined, active: boolean): number | undefined {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(performance.now()), 100);
    return () => clearInterval(timer);
  }, [active]);
  return startedAt === undefined ? undefined : Math.max(0, now - startedAt);
}

const LABELS: Record<NodeRunState['phase'], string> = {
  invalid: 'Cannot run',
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  cached: 'Cached',
  bypassed: 'Bypassed',
  failed: 'Failed',
  skipped: 'Skipped',
  cancelled: 'Cancelled',
};

function headline(s: NodeRunState, elapsed: number | undefined, upstream: string | undefined): string {
  switch (s.phase) {
    case 'running':
      return elapsed === undefined ? 'Running' : `Running ${formatDuration(elapsed)}`;
    case 'done':
      return `Done in ${formatDuration(s.durationMs ?? 0)}`;
    case 'cached':
      return s.apiCallsSaved ? `Cached (saved ${plural(s.apiCallsSaved, 'call')})` : 'Cached';
    case 'failed':
      return s.durationMs === undefined ? 'Failed' : `Failed after ${formatDuration(s.durationMs)}`;
    case 'skipped':
      // The executor's own wording names node ids; a plain upstream failure reads better by name.
      return s.reason === undefined || s.reason === `'${s.because}' failed` ? `Skipped: ${upstream ?? 'an upstream node'} failed` : 'Skipped';
    default:
      return LABELS[s.phase];
  }
}

/** The streamed text, kept scrolled to its end while it grows unless the reader scrolled up. */
function StreamedText({ text, live }: { text: string; live: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [text]);
  return (
    <div
      ref={ref}
      className="run-stream nodrag nowheel"
      aria-label={live ? 'Text streaming in' : 'Text received before the node stopped'}
      aria-busy={live}
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
      }}
    >
      {text}
    </div>
  );
}

function Bypass({ passed = {}, unavailable = {}, label }: Pick<NodeRunState, 'passed' | 'unavailable'> & { label: (port: string) => string }) {
  const lines = [
    ...Object.entries(passed).map(([output, input]) => `${label(output)} passes on input ${label(input)}`),
    ...Object.entries(unavailable).map(([output, why]) => `${label(output)}: nothing to pass on (${why})`),
  ];
  if (lines.length === 0) return null;
  return <p className="run-status__message">{lines.join('; ')}</p>;
}

/** A line that is not a run's phase: "Not run yet", or a result brought back from the cache. */
function QuietLine({ kind, text, items }: { kind: 'idle' | 'restored'; text: string; items: string | undefined }) {
  return (
    <div className={`run-quiet run-quiet--${kind}`}>
      <div className="run-status__line">
        <span className="run-quiet__badge">{text}</span>
      </div>
      {items !== undefined && <p className="run-status__items">{items}</p>}
    </div>
  );
}

/**
 * `stage`: a node that makes pictures keeps its status line before its first run ("Not run
 * yet"), so the line a run brings does not make it taller.
 */
export function NodeRunStatus({ nodeId, stage = false, fans = false }: { nodeId: string; stage?: boolean; fans?: boolean }) {
  const { describeNode, focusNode } = useRunContext();
  const s = useNodeRunState(nodeId);
  const result = useNodeResult(nodeId);
  const running = s?.phase === 'running';
  const elapsed = useElapsed(s?.startedAt, running);
  const perItem = fans ? 'Runs once per item of its list' : undefined;
  if (!s) {
    // After a reload a restored result says where it came from where "Done" stood.
    if (result?.restored) return <QuietLine kind="restored" text={restoredText(result.restored.at)} items={result.items ? plural(result.items.length, 'item') : perItem} />;
    return stage ? <QuietLine kind="idle" text="Not run yet" items={perItem} /> : null;
  }

  const upstream = s.because === undefined ? undefined : `'${describeNode(s.because).label}'`;
  const fieldLabel = (field: string) => describeNode(nodeId).fieldLabel?.(field) ?? field;
  const streaming = s.text !== '' && s.phase !== 'done' && s.phase !== 'cached';
  return (
    <div className={`run-status run-status--${s.phase}`} data-phase={s.phase}>
      <div className="run-status__line">
        <span className="run-status__badge" role="status">{headline(s, elapsed, upstream)}</span>
        {running && s.progress !== undefined && (
          <progress className="run-status__progress" max={1} value={s.progress} aria-label={`Progress of ${describeNode(nodeId).label}`} />
        )}
      </div>
      {s.fanOut ? (
        <p className="run-status__items" aria-label={`Items of ${describeNode(nodeId).label}`}>
          {s.fanOut.count === 0 ? 'No items to run' : describeItems(s.fanOut)}
        </p>
      ) : perItem !== undefined && stage && <p className="run-status__items">{perItem}</p>}
      {running && s.message && <p className="run-status__message">{s.message}</p>}
      {(s.phase === 'done' || s.phase === 'cached') && s.notes !== undefined && s.notes.length > 0 && (
        <p className="run-status__message run-status__note">{s.notes.join('; ')}</p>
      )}
      {s.retry && (
        <p className="run-status__message">
          Retrying ({s.retry.attempt} of {s.retry.maxAttempts}): {s.retry.reason}
        </p>
      )}
      {s.phase === 'failed' && s.error && (
        <div className="run-status__error nodrag" role="alert">
          <p>
            {s.error.status !== undefined && !s.error.message.includes(`HTTP ${s.error.status}`) && <strong>HTTP {s.error.status}: </strong>}
            {s.error.message}
          </p>
          {s.error.field !== undefined && (
            <button type="button" className="run-link nodrag" onClick={() => focusNode(nodeId, s.error?.field)}>
              Go to field {fieldLabel(s.error.field)}
            </button>
          )}
        </div>
      )}
      {s.phase === 'skipped' && s.reason !== undefined && s.reason !== `'${s.because}' failed` && <p className="run-status__message">{s.reason}</p>}
      {s.phase === 'bypassed' && <Bypass passed={s.passed} unavailable={s.unavailable} label={fieldLabel} />}
      {s.phase === 'skipped' && s.because !== undefined && (
        <button type="button" className="run-link nodrag" onClick={() => focusNode(s.because!)}>
          Show {upstream}
        </button>
      )}
      {s.phase === 'invalid' && s.problems && (
        <ul className="run-status__problems">
          {s.problems.map((p, i) => (
            <li key={i}>
              <button type="button" className="run-link nodrag" onClick={() => focusNode(nodeId, p.field)}>
                {p.message}
              </button>
            </li>
          ))}
        </ul>
      )}
      {streaming && <StreamedText text={s.text} live={running} />}
    </div>
  );
}
