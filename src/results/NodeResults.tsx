/**
 * A node's results inside the node: images as thumbnails from object URLs (a click opens the
 * large viewer), text as plain text (never HTML). Results of an earlier run stay visible, dimmed,
 * while a new run of the node is under way.
 */
import { useCallback, useState } from 'react';
import { useNodePhase, useNodeResult, useRunContext } from '../run/context';
import { imageFileName } from './file-names';
import { ImageViewer } from './ImageViewer';
import { imagesOf, type ShownImage, type ShownValue } from './object-urls';
import './results.css';

type TextValue = Extract<ShownValue, { kind: 'text' | 'number' }>;

function TextResult({ name, value, labelled, nodeLabel }: { name: string; value: TextValue; labelled: boolean; nodeLabel: string }) {
  const text = String(value.value);
  return (
    <div className="results__text-block">
      {labelled && <span className="results__port">{name}</span>}
      <output className="results__text nodrag nowheel" aria-label={`${nodeLabel}: ${name} result`} tabIndex={0}>
        {text === '' ? <em>(empty text)</em> : text}
      </output>
    </div>
  );
}

export function NodeResults({ nodeId }: { nodeId: string }) {
  const { describeNode, workflowTitle } = useRunContext();
  const result = useNodeResult(nodeId);
  const phase = useNodePhase(nodeId);
  const [open, setOpen] = useState<number | undefined>();
  const images = result ? imagesOf(result.outputs) : [];
  const label = describeNode(nodeId).label;

  const fileName = useCallback(
    (image: ShownImage, index: number) => {
      const { label: nodeLabel, filename } = describeNode(nodeId);
      return imageFileName({ workflowTitle: workflowTitle(), nodeLabel, filename, index, count: images.length, seed: image.seed, mime: image.mime });
    },
    [describeNode, workflowTitle, nodeId, images.length],
  );

  if (!result) return null;
  const texts = Object.entries(result.outputs).filter((e): e is [string, TextValue] => e[1].kind === 'text' || e[1].kind === 'number');
  const stale = phase === 'queued' || phase === 'running' || phase === 'failed' || phase === 'cancelled' || phase === 'skipped';

  return (
    <div
      className={`results${stale ? ' results--stale' : ''}`}
      aria-label={`Results of ${label}`}
      role="group"
      title={stale ? 'From an earlier run' : undefined}
    >
      {images.length > 0 && (
        <ul className={`results__images${images.length > 1 ? ' results__images--grid' : ''}`}>
          {images.map((image, i) => (
            <li key={image.url || `invalid-${i}`}>
              {image.url === '' ? (
                <p className="results__invalid" role="alert">Image {i + 1} could not be shown: {image.invalid}</p>
              ) : (
                <button type="button" className="results__thumb nodrag" onClick={() => setOpen(i)} aria-label={`Open image ${i + 1} of ${label}${image.seed === undefined ? '' : ` (seed ${image.seed})`}`}>
                  <img src={image.url} alt="" decoding="async" draggable={false} />
                  {image.seed !== undefined && <span className="results__seed">seed {image.seed}</span>}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {texts.map(([name, value]) => (
        <TextResult key={name} name={name} value={value} labelled={texts.length > 1} nodeLabel={label} />
      ))}
      {open !== undefined && images[open] && (
        <ImageViewer images={images} index={open} title={label} fileName={fileName} onIndexChange={setOpen} onClose={() => setOpen(undefined)} />
      )}
    </div>
  );
}
