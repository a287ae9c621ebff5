/**
 * Downloads of generated images, for the node results, the viewer and the run history: the
 * workflow as it was run and the image's manifest embedded (embed-download.ts), after a credential scan whose findings are shown in a dialog before anything is saved.
 * The embedding code (PNG and JPEG writers, the manifest) loads at the first download.
 */
import { useCallback, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { sha256OfBlob } from '../history/digest';
import { useRunContext } from '../run/context';
import { Dialog } from '../ui/Dialog';
import { toast } from '../ui/toast';
import type { ImageDownload, PreparedDownload, saveBytes as saveBytesFn } from './embed-download';

export type DownloadRequest = Omit<ImageDownload, 'registry' | 'secrets' | 'pinSeeds'>;
type Findings = Extract<PreparedDownload, { kind: 'findings' }>;
type SaveBytes = typeof saveBytesFn;

const embedding = () => import('./embed-download');

/** A result shown again from the cache made no request this run: the history knows the one that made it. */
async function withKnownCalls(d: DownloadRequest): Promise<DownloadRequest> {
  if (!d.maker || d.maker.calls.length > 0 || !d.workflow) return d;
  try {
    const { historyStore } = await import('../history/store');
    const earlier = await historyStore().findImage(await sha256OfBlob(d.image));
    return earlier && earlier.nodeId === d.maker.node.id ? { ...d, maker: { ...d.maker, calls: earlier.calls } } : d;
  } catch {
    return d;
  }
}

function FindingsDialog({ pending, saveBytes, onClose }: { pending: Findings; saveBytes: SaveBytes; onClose(): void }) {
  const save = (bytes: () => Uint8Array, what: string) => {
    onClose();
    saveBytes(bytes(), pending.mime, pending.fileName);
    toast(`Downloaded ${pending.fileName} ${what}`, 'success');
  };
  return createPortal(
    <Dialog
      title="Credential-like text in this workflow"
      className="download-dialog nodrag nopan nowheel nokey"
      onClose={onClose}
      footer={(
        <>
          <button type="button" className="button" onClick={onClose}>Cancel</button>
          <button type="button" className="button" onClick={() => save(() => pending.imageOnly, 'without its workflow')}>
            Download without the workflow
          </button>
          {pending.removable && (
            <button type="button" className="button primary" onClick={() => save(pending.withoutFindings, 'with the findings removed')}>
              Download with these removed
            </button>
          )}
        </>
      )}
    >
      <p>
        The image would carry its workflow, and these fields look like credentials. Nobody should receive them in an
        image.{!pending.removable && ' Some of them can only be fixed by hand (a node type or a port name).'}
      </p>
      <ul className="download-dialog__findings">
        {pending.findings.map((f, i) => (
          <li key={i}>
            <strong>{pending.places[i] ?? f.field}</strong>: {f.kind} <code>{f.preview}</code>
          </li>
        ))}
      </ul>
    </Dialog>,
    document.body,
  );
}

export interface ImageDownloader {
  download(request: DownloadRequest): void;
  /** The findings dialog, when one is open: render it. */
  dialog: ReactNode;
}

export function useImageDownload(): ImageDownloader {
  const { link, controller } = useRunContext();
  const [pending, setPending] = useState<{ findings: Findings; saveBytes: SaveBytes } | undefined>();
  const download = useCallback((request: DownloadRequest) => {
    void (async () => {
      try {
        const [full, { prepareImageDownload, saveBytes }] = await Promise.all([withKnownCalls(request), embedding()]);
        const prepared = await prepareImageDownload({ ...full, registry: link.registry, secrets: link.secrets(), pinSeeds: controller.pinSeeds });
        if (prepared.kind === 'findings') {
          setPending({ findings: prepared, saveBytes });
          return;
        }
        saveBytes(prepared.bytes, prepared.mime, prepared.fileName);
        if (prepared.note) toast(prepared.note, 'info');
      } catch (error) {
        toast(`The image was not downloaded: ${error instanceof Error ? error.message : String(error)}`, 'error');
      }
    })();
  }, [link, controller]);
  const dialog = pending ? <FindingsDialog pending={pending.findings} saveBytes={pending.saveBytes} onClose={() => setPending(undefined)} /> : null;
  return { download, dialog };
}
