/**
 * One output in the run history: its thumbnail or text, the node and seed that made it, when,
 * and (opened) the parameters and the request sent; actions to view, download it with its
 * workflow, and open the workflow of its run. The thumbnail's object URL lives as long as the
 * entry is on screen.
 */
import { useEffect, useState } from 'react';
import { formatBytes } from '../run/format';
import type { HistoryEntry } from './types';

function useObjectUrl(blob: Blob | undefined): string | undefined {
  const [url, setUrl] = useState<string | undefined>();
  useEffect(() => {
    if (!blob) return;
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => {
      URL.revokeObjectURL(made);
      setUrl(undefined);
    };
  }, [blob]);
  return url;
}

function show(value: unknown): string {
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  return JSON.stringify(value);
}

/** The last request's fields that say the most: the prompt first, then the rest, image data left out. */
function requestFields(entry: HistoryEntry): [string, string][] {
  const request = entry.calls.at(-1)?.request;
  if (typeof request !== 'object' || request === null) return [];
  return Object.entries(request as Record<string, unknown>)
    .filter(([, v]) => !(typeof v === 'string' && v.startsWith('<base64')))
    .map(([k, v]): [string, string] => [k, show(v)]);
}

export const timeOf = (at: number) => new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export interface EntryActions {
  view(entry: HistoryEntry & { kind: 'image' }): void;
  download(entry: HistoryEntry & { kind: 'image' }): void;
  openWorkflow(entry: HistoryEntry): void;
}

export function HistoryEntryView({ entry, actions }: { entry: HistoryEntry; actions: EntryActions }) {
  const thumb = useObjectUrl(entry.kind === 'image' ? entry.thumb : undefined);
  const seed = entry.kind === 'image' && entry.seed !== undefined ? entry.seed : undefined;
  const what = entry.kind === 'image' ? `image${entry.count > 1 ? ` ${entry.index + 1} of ${entry.count}` : ''}` : 'text';
  const name = `${entry.nodeLabel}, ${what}${seed === undefined ? '' : `, seed ${seed}`}, ${timeOf(entry.at)}`;
  const sent = requestFields(entry);
  return (
    <article className="history-entry" aria-label={name}>
      {entry.kind === 'image' ? (
        <button type="button" className="history-entry__thumb" onClick={() => actions.view(entry)} aria-label={`View ${name}`}>
          {thumb && <img src={thumb} alt="" decoding="async" loading="lazy" />}
        </button>
      ) : (
        <p className="history-entry__text">{entry.text === '' ? <em>(empty text)</em> : entry.text}</p>
      )}
      <div className="history-entry__body">
        <p className="history-entry__line">
          <strong>{entry.nodeLabel}</strong>
          {seed !== undefined && <span className="history-entry__seed">seed {seed}</span>}
          {entry.kind === 'image' && entry.madeOn !== undefined && <span className="history-entry__seed">on {entry.madeOn}</span>}
          <time dateTime={new Date(entry.at).toISOString()}>{timeOf(entry.at)}</time>
        </p>
        <details className="history-entry__details">
          <summary>Parameters</summary>
          <dl>
            {Object.entries(entry.params).map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{show(v)}</dd>
              </div>
            ))}
          </dl>
          {sent.length > 0 && (
            <>
              <p className="history-entry__sub">Sent to the API{entry.calls.at(-1)?.engine ? ` (${entry.calls.at(-1)?.engine})` : ''}</p>
              <dl>
                {sent.map(([k, v]) => (
                  <div key={k}>
                    <dt>{k}</dt>
                    <dd>{v}</dd>
                  </div>
                ))}
              </dl>
            </>
          )}
          {entry.kind === 'image' && <p className="history-entry__sub">{[entry.width && entry.height ? `${entry.width}×${entry.height}` : '', entry.mime, formatBytes(entry.image.size)].filter(Boolean).join(' · ')}</p>}
        </details>
        <div className="history-entry__actions">
          <button type="button" className="run-link" onClick={() => actions.openWorkflow(entry)}>
            Open this run's workflow
          </button>
          {entry.kind === 'image' && (
            <button type="button" className="run-link" onClick={() => actions.download(entry)} aria-label={`Download ${name}`}>
              Download
            </button>
          )}
        </div>
      </div>
    </article>
  );
}
