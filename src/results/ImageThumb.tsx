/**
 * One image in a node's results: the thumbnail (a click opens the large viewer), its seed, and
 * its actions: pin this seed, and download with the workflow that made it.
 */
import type { PinAction } from './ImageViewer';
import type { ShownImage } from './object-urls';

export interface ImageThumbProps {
  image: ShownImage;
  /** Its place among the node's images (0-based), as the viewer and downloads number them. */
  index: number;
  /** The node's name, for the controls' accessible names. */
  label: string;
  pin: PinAction | undefined;
  onOpen(): void;
  onDownload(): void;
}

export function ImageThumb({ image, index, label, pin, onOpen, onDownload }: ImageThumbProps) {
  if (image.url === '') return <p className="results__invalid" role="alert">Image {index + 1} could not be shown: {image.invalid}</p>;
  return (
    <>
      <button type="button" className="results__thumb nodrag" onClick={onOpen} aria-label={`Open image ${index + 1} of ${label}${image.seed === undefined ? '' : `, seed ${image.seed}`}`}>
        <img src={image.url} alt="" decoding="async" draggable={false} />
        {image.seed !== undefined && <span className="results__seed">seed {image.seed}</span>}
      </button>
      <span className="results__actions">
        {pin && 'pin' in pin && (
          <button type="button" className="results__action nodrag" onClick={pin.pin} aria-label={`Pin seed ${image.seed} on ${pin.nodeLabel}`} title={`Set the seed of ${pin.nodeLabel} to ${image.seed} and keep it fixed`}>
            📌
          </button>
        )}
        <button type="button" className="results__action nodrag" onClick={onDownload} aria-label={`Download image ${index + 1} of ${label}`} title="Download, with the workflow that made it">
          ⤓
        </button>
      </span>
    </>
  );
}
