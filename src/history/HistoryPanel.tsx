/**
 * The run history panel: every output of the session's runs, newest first, kept in
 * IndexedDB within a size cap (oldest evicted), with a Clear that asks first. Each entry opens
 * its run's workflow as it was (one undo step), downloads its image with that workflow embedded,
 * and shows the parameters and seed that made it. Loaded when the history is first opened
 * (HistorySection).
 */
import { useCallback, useEffect, useState } from 'react';
import { formatBytes, plural } from '../run/format';
import { useRunContext } from '../run/context';
import { imageFileName } from '../results/file-names';
import type { ShownImage } from '../results/object-urls';
import { ImageViewer } from '../results/ImageViewer';
import { useImageDownload } from '../results/use-image-download';
import { toast } from '../ui/toast';
import { HistoryEntryView, timeOf, type EntryActions } from './HistoryEntryView';
import { openRunWorkflow } from './restore';
import { historyStore } from './store';
import type { HistoryEntry, HistoryStats, ImageEntry } from './types';
import { loadWorkflow } from '../../workflow/load';
import './history.css';

const PAGE = 30;

function useHistory(limit: number) {
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  const [stats, setStats] = useState<HistoryStats | undefined>();
  useEffect(() => {
    const store = historyStore();
    let live = true;
    let asked = 0;
    const load = () => {
      const id = ++asked;
      Promise.all([store.list(limit), store.stats()]).then(([list, s]) => {
        if (live && id === asked) {
          setEntries(list);
          setStats(s);
        }
      }, (error: unknown) => console.error('the run history could not be read', error));
    };
    load();
    const off = store.subscribe(load);
    return () => {
      live = false;
      off();
    };
  }, [limit]);
  return { entries, stats };
}

/** The viewer over one history image, its object URL made on open and revoked on close. */
function EntryViewer({ entry, onClose, onDownload }: { entry: ImageEntry; onClose(): void; onDownload(): void }) {
  const [url, setUrl] = useState<string | undefined>();
  useEffect(() => {
    const made = URL.createObjectURL(entry.image);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [entry.image]);
  if (!url) return null;
  const image: ShownImage = {
    url, mime: entry.mime, bytes: entry.image.size, blob: entry.image,
    ...(entry.seed === undefined ? {} : { seed: entry.seed }),
    ...(entry.width === undefined ? {} : { width: entry.width }),
    ...(entry.height === undefined ? {} : { height: entry.height }),
  };
  return (
    <ImageViewer
      images={[image]}
      index={0}
      title={`${entry.nodeLabel} (${timeOf(entry.at)})`}
      fileName={() => fileNameOf(entry)}
      onIndexChange={() => undefined}
      onClose={onClose}
      onDownload={onDownload}
    />
  );
}

function fileNameOf(entry: ImageEntry): string {
  return imageFileName({ workflowTitle: '', nodeLabel: entry.nodeLabel, index: entry.index, count: entry.count, seed: entry.seed, mime: entry.mime });
}

export default function HistoryPanel() {
  const { link } = useRunContext();
  const [limit, setLimit] = useState(PAGE);
  const { entries, stats } = useHistory(limit);
  const [confirming, setConfirming] = useState(false);
  const [viewing, setViewing] = useState<ImageEntry | undefined>();
  const downloader = useImageDownload();

  const download = useCallback(async (entry: ImageEntry) => {
    const run = await historyStore().workflow(entry.runKey);
    let workflow;
    try {
      workflow = run && run.workflow !== '' ? loadWorkflow(run.workflow).workflow : undefined;
    } catch {
      workflow = undefined;
    }
    downloader.download({
      image: entry.image,
      mime: entry.mime,
      fileName: fileNameOf(entry),
      ...(entry.seed === undefined ? {} : { seed: entry.seed }),
      ...(entry.width === undefined ? {} : { width: entry.width }),
      ...(entry.height === undefined ? {} : { height: entry.height }),
      ...(entry.madeOn === undefined ? {} : { madeOn: entry.madeOn }),
      ...(workflow ? { workflow } : {}),
      maker: {
        node: { id: entry.nodeId, type: entry.nodeType, title: entry.nodeLabel },
        ...(entry.typeVersion === undefined ? {} : { typeVersion: entry.typeVersion }),
        calls: entry.calls,
      },
    });
    if (!workflow) toast('The workflow of this run is no longer in the history: the image downloads without it', 'info');
  }, [downloader]);

  const actions: EntryActions = {
    view: (entry) => setViewing(entry),
    download: (entry) => void download(entry),
    openWorkflow(entry) {
      void (async () => {
        const run = await historyStore().workflow(entry.runKey);
        if (!run || run.workflow === '') {
          toast('The workflow of this run is no longer in the history', 'warning');
          return;
        }
        openRunWorkflow(link, run.workflow, timeOf(run.at));
      })();
    },
  };

  const clear = () => {
    setConfirming(false);
    historyStore().clear().then(() => toast('The run history is empty', 'info'), (error: unknown) => {
      toast(`The run history could not be cleared: ${error instanceof Error ? error.message : String(error)}`, 'error');
    });
  };

  return (
    <>
      <div className="history__header">
        {stats && (
          <span className="history__stats">
            {plural(stats.entries, 'output')} · {formatBytes(stats.bytes)} of {formatBytes(stats.maxBytes)}
            {!stats.persistent && ' (this page only: the browser refused storage)'}
          </span>
        )}
        {!confirming && (
          <button type="button" className="run-link" disabled={entries.length === 0} onClick={() => setConfirming(true)}>
            Clear…
          </button>
        )}
      </div>
      {confirming && (
        <p className="history__confirm" role="group" aria-label="Confirm clearing the history">
          Delete every output in the history?{' '}
          <button type="button" className="button" onClick={clear}>Clear history</button>{' '}
          <button type="button" className="button" onClick={() => setConfirming(false)}>Keep</button>
        </p>
      )}
      {entries.length === 0 ? (
        <p className="run-estimate__note">Outputs of your runs appear here, and stay after a reload.</p>
      ) : (
        <ol className="history__list">
          {entries.map((entry) => (
            <li key={entry.id}>
              <HistoryEntryView entry={entry} actions={actions} />
            </li>
          ))}
        </ol>
      )}
      {stats && entries.length < stats.entries && entries.length >= limit && (
        <button type="button" className="run-link" onClick={() => setLimit(limit + PAGE)}>Show older outputs</button>
      )}
      {viewing && (
        <EntryViewer entry={viewing} onClose={() => setViewing(undefined)} onDownload={() => void download(viewing)} />
      )}
      {downloader.dialog}
    </>
  );
}
