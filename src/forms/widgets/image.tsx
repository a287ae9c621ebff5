/**
 * The Image loader's picture: choose a file, drop one on the node, or paste one while the node
 * is selected. The image is kept as base64 in the node's parameters (that is the file format);
 * the thumbnail is an object URL made from its bytes, never a data: URL in React state.
 */
import { useEffect, useRef, useState } from 'react';
import { IMAGE_ACCEPT, objectUrlFromBase64, putImageFile } from '../../files/image-file';
import { base64ByteSize } from '../../../nodes/values';
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

/** An object URL for the image's bytes while the component shows it. */
export function useObjectUrl(b64: string | undefined, mime: string | undefined): string | undefined {
  const [url, setUrl] = useState<string | undefined>();
  useEffect(() => {
    if (b64 === undefined || mime === undefined) {
      setUrl(undefined);
      return;
    }
    let made: string | undefined;
    try {
      made = objectUrlFromBase64(b64, mime);
    } catch {
      // Not base64: the form shows the parameter problem; there is nothing to draw.
      made = undefined;
    }
    setUrl(made);
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [b64, mime]);
  return url;
}

export function ImageWidget({ id, value, set, describedBy, invalid }: WidgetProps) {
  const image = asImage(value);
  const url = useObjectUrl(image?.b64, image?.mime);
  const input = useRef<HTMLInputElement>(null);
  const bytes = image ? base64ByteSize(image.b64) : 0;
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
