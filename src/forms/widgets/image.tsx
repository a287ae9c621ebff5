/**
 * The Image loader's picture: choose a file, drop one on the node, or paste one while the node
 * is selected. The node's parameters hold a reference into the asset store (base64 in a saved
 * file); the thumbnail is an object URL made from the stored bytes, never a data: URL in React
 * state.
 */
import { useEffect, useRef, useState } from 'react';
import { imageBlob } from '../../files/assets';
import { IMAGE_ACCEPT, putImageFile } from '../../files/image-file';
import type { WidgetProps } from './types';

interface StoredImage {
  b64: string;
  mime: string;
  name: string;
  width?: number;
  height?: number;
}

function asImage(value: unknown): StoredImage | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<StoredImage>;
  return typeof v.b64 === 'string' && typeof v.mime === 'string' ? { name: 'image', ...v } as StoredImage : null;
}

interface Shown {
  url: string;
  bytes: number;
}

/** An object URL for the image's bytes (and their size) while the component shows it. */
export function useObjectUrl(source: string | undefined, mime: string | undefined): Shown | undefined {
  const [shown, setShown] = useState<Shown | undefined>();
  useEffect(() => {
    setShown(undefined);
    if (source === undefined || mime === undefined) return;
    let made: string | undefined;
    let live = true;
    imageBlob(source, mime).then((blob) => {
      if (!live) return;
      made = URL.createObjectURL(blob);
      setShown({ url: made, bytes: blob.size });
    }, () => {
      // Not an image we hold: the form shows the parameter problem; there is nothing to draw.
    });
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [source, mime]);
  return shown;
}

export function ImageWidget({ id, value, set, describedBy, invalid }: WidgetProps) {
  const image = asImage(value);
  const shown = useObjectUrl(image?.b64, image?.mime);
  const url = shown?.url;
  const input = useRef<HTMLInputElement>(null);
  const bytes = shown?.bytes ?? 0;
  const size = bytes < 1024 ? `${bytes} bytes` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const dims = image?.width && image.height ? `${image.width}×${image.height}, ` : '';
  return (
    <div className={`image-field ${invalid ? 'invalid' : ''}`} aria-describedby={describedBy}>
      {image && url
        ? <img className="thumbnail" src={url} alt={`Loaded image ${image.name}`} draggable={false} />
        : <div className="thumbnail empty">Drop an image here, paste one, or choose a file</div>}
      {image && <p className="image-meta" title={image.name}>{image.name} · {dims}{size}</p>}
      <div className="row">
        <button type="button" className="button small" id={id} onClick={() => input.current?.click()}>
          {image ? 'Replace…' : 'Choose image…'}
        </button>
        {image && <button type="button" className="button small" onClick={() => set(null)}>Remove</button>}
      </div>
      <input
        ref={input}
        type="file"
        accept={IMAGE_ACCEPT}
        hidden
        aria-label="Image file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void putImageFile(file, set);
        }}
      />
    </div>
  );
}
