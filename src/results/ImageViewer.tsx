/**
 * The large image viewer: a modal <dialog> (focus kept inside, Escape closes, focus returns to
 * the thumbnail), with download under a sensible name, the seed shown and copyable, and the
 * previous/next image with the arrow keys. Rendered into <body> so the canvas's drag, zoom and
 * key handlers never see its events.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { createPortal } from 'react-dom';
import { formatBytes } from '../run/format';
import type { ShownImage } from './object-urls';
import './results.css';

export interface ImageViewerProps {
  images: readonly ShownImage[];
  index: number;
  /** Shown as the dialog's title, e.g. the node's label. */
  title: string;
  fileName(image: ShownImage, index: number): string;
  onIndexChange(index: number): void;
  onClose(): void;
  /** Downloads the image with its workflow embedded; without it the link downloads the bare image. */
  onDownload?(image: ShownImage, index: number): void;
  /** What "pin this seed" would do for the image: pin it on a node, or why it cannot. */
  pinFor?(image: ShownImage): PinAction | undefined;
}

/** "Pin this seed" on an image: the node it goes to, or why there is none. */
export type PinAction = { pin(): void; nodeLabel: string } | { reason: string };

function PinButton({ action, seed }: { action: PinAction; seed: number }) {
  const [done, setDone] = useState(false);
  if ('reason' in action) return <span className="viewer__note">Seed not pinnable: {action.reason}</span>;
  return (
    <button
      type="button"
      title={`Set the seed of ${action.nodeLabel} to ${seed} and keep it fixed`}
      onClick={() => {
        action.pin();
        setDone(true);
      }}
    >
      {done ? 'Pinned' : 'Pin this seed'}
    </button>
  );
}

const stop = (e: SyntheticEvent) => e.stopPropagation();

function SeedField({ seed }: { seed: number }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | undefined>();
  useEffect(() => {
    if (copied === undefined) return;
    const timer = setTimeout(() => setCopied(undefined), 1500);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <span className="viewer__seed">
      <label>
        Seed <input readOnly value={seed} size={Math.max(6, String(seed).length)} onFocus={(e) => e.currentTarget.select()} />
      </label>
      <button
        type="button"
        onClick={() => {
          navigator.clipboard.writeText(String(seed)).then(() => setCopied('yes'), () => setCopied('failed'));
        }}
      >
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the seed' : 'Copy seed'}
      </button>
    </span>
  );
}

export function ImageViewer({ images, index, title, fileName, onIndexChange, onClose, onDownload, pinFor }: ImageViewerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const image = images[index];

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    // Where focus was, so closing puts the keyboard user back on the thumbnail they opened.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    el.showModal();
    return () => {
      el.close();
      opener?.focus();
    };
  }, []);

  if (!image) return null;
  const many = images.length > 1;
  const go = (step: number) => onIndexChange((index + step + images.length) % images.length);
  const onKeyDown = (e: KeyboardEvent) => {
    e.stopPropagation();
    const inField = e.target instanceof HTMLInputElement;
    if (many && !inField && e.key === 'ArrowRight') go(1);
    else if (many && !inField && e.key === 'ArrowLeft') go(-1);
  };
  const name = fileName(image, index);
  const pin = pinFor?.(image);
  const size = image.width !== undefined && image.height !== undefined ? `${image.width}×${image.height}` : undefined;

  return createPortal(
    <dialog
      ref={dialog}
      className="viewer nodrag nopan nowheel nokey"
      aria-label={`${title}: image ${index + 1} of ${images.length}`}
      onCancel={(e) => {
        // Escape: React closes it, so the effect's cleanup restores focus.
        e.preventDefault();
        onClose();
      }}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        stop(e);
        // A click on the backdrop (the dialog itself, outside its content) closes it.
        if (e.target === dialog.current) onClose();
      }}
      onPointerDown={stop}
      onWheel={stop}
      onDoubleClick={stop}
    >
      <div className="viewer__body">
        <header className="viewer__bar">
          <h2 className="viewer__title">
            {title}
            {many && <span className="viewer__count"> · {index + 1} of {images.length}</span>}
          </h2>
          <button type="button" onClick={onClose} aria-label="Close viewer">
            ✕
          </button>
        </header>
        <div className="viewer__stage">
          {many && (
            <button type="button" className="viewer__nav" onClick={() => go(-1)} aria-label="Previous image">
              ‹
            </button>
          )}
          {image.url === '' ? (
            <p role="alert">This image could not be shown: {image.invalid}</p>
          ) : (
            <img src={image.url} alt={`${title}, image ${index + 1}${image.seed === undefined ? '' : `, seed ${image.seed}`}`} />
          )}
          {many && (
            <button type="button" className="viewer__nav" onClick={() => go(1)} aria-label="Next image">
              ›
            </button>
          )}
        </div>
        <footer className="viewer__bar">
          {image.seed !== undefined ? <SeedField seed={image.seed} /> : <span>No seed reported</span>}
          {image.seed !== undefined && pin && <PinButton key={image.url} action={pin} seed={image.seed} />}
          <span className="viewer__meta">{[size, image.mime, formatBytes(image.bytes)].filter(Boolean).join(' · ')}</span>
          {image.url !== '' && (
            <a
              className="viewer__download"
              href={image.url}
              download={name}
              title={`Download as ${name}${onDownload ? ', with the workflow that made it' : ''}`}
              onClick={(e) => {
                if (!onDownload) return;
                e.preventDefault();
                onDownload(image, index);
              }}
            >
              Download
            </a>
          )}
        </footer>
      </div>
    </dialog>,
    document.body,
  );
}
