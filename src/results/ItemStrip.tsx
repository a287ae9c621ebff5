/**
 * The results of a node that ran once per item: a strip of its items, a page of them in view,
 * paged with the arrows (or scrolled). Each item shows its images, its texts, or why it failed;
 * an item still to come shows its place. Items arrive as they end, so the strip fills in.
 */
import { useRef, useState, type ReactNode } from 'react';
import type { ItemResult } from '../run/run-state';
import type { ShownImage, ShownValue } from './object-urls';

/** Items in view at once: two to a row, two rows. */
export const ITEMS_PER_PAGE = 4;

function imagesOfItem(outputs: Record<string, ShownValue>): ShownImage[] {
  const list = Object.values(outputs).find((v) => v.kind === 'images');
  if (list?.kind === 'images') return list.value;
  return Object.values(outputs).flatMap((v) => (v.kind === 'image' ? [v.value] : []));
}

function textOfItem(outputs: Record<string, ShownValue>): string | undefined {
  const texts = Object.values(outputs).flatMap((v) => (v.kind === 'text' ? [v.value] : v.kind === 'texts' ? v.value : v.kind === 'number' ? [String(v.value)] : []));
  return texts.length === 0 ? undefined : texts.join('\n');
}

export interface ItemStripProps {
  items: readonly (ItemResult | undefined)[];
  /** The node's name, for accessible names. */
  label: string;
  /** One image, as the node's other results draw it (thumbnail, seed, pin, download). */
  renderImage(image: ShownImage): ReactNode;
}

export function ItemStrip({ items, label, renderImage }: ItemStripProps) {
  const [page, setPage] = useState(0);
  const list = useRef<HTMLDivElement>(null);
  const pages = Math.max(1, Math.ceil(items.length / ITEMS_PER_PAGE));
  const shown = Math.min(page, pages - 1);
  const first = shown * ITEMS_PER_PAGE;
  const last = Math.min(items.length, first + ITEMS_PER_PAGE);

  const cell = (item: ItemResult | undefined, i: number) => {
    const name = `Item ${i + 1} of ${items.length}`;
    if (item === undefined) {
      return <li key={i} className="results__cell results__cell--waiting" aria-label={`${name}, not done yet`}><span>{i + 1}</span></li>;
    }
    if ('error' in item) {
      return (
        <li key={i} className="results__cell results__cell--failed" aria-label={`${name}, failed`}>
          <p role="alert"><strong>Item {i + 1} failed:</strong> {item.error.message}</p>
        </li>
      );
    }
    const images = imagesOfItem(item.outputs);
    const text = textOfItem(item.outputs);
    return (
      <li key={i} className="results__cell" aria-label={name}>
        {images.length > 0 && <ul className="results__images">{images.map(renderImage)}</ul>}
        {images.length === 0 && text !== undefined && <output className="results__text" tabIndex={0}>{text === '' ? <em>(empty text)</em> : text}</output>}
      </li>
    );
  };

  const go = (next: number) => {
    const to = Math.max(0, Math.min(pages - 1, next));
    setPage(to);
    // scrollTo on the strip itself: scrollIntoView would also scroll the canvas around the node.
    const el = list.current;
    el?.scrollTo({ left: to * el.clientWidth });
  };

  return (
    <div className="results__strip" role="group" aria-label={`Each item of ${label}`}>
      {pages > 1 && (
        <div className="results__pager">
          <button type="button" className="results__page nodrag" onClick={() => go(shown - 1)} disabled={shown === 0} aria-label={`Previous items of ${label}`}>‹</button>
          <span aria-live="polite">Items {first + 1}–{last} of {items.length}</span>
          <button type="button" className="results__page nodrag" onClick={() => go(shown + 1)} disabled={shown === pages - 1} aria-label={`Next items of ${label}`}>›</button>
        </div>
      )}
      <div
        ref={list}
        className="results__pages nodrag nowheel"
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.clientWidth > 0) setPage(Math.round(el.scrollLeft / el.clientWidth));
        }}
      >
        {Array.from({ length: pages }, (_, p) => (
          <ol key={p} className="results__items" start={p * ITEMS_PER_PAGE + 1}>
            {items.slice(p * ITEMS_PER_PAGE, (p + 1) * ITEMS_PER_PAGE).map((item, k) => cell(item, p * ITEMS_PER_PAGE + k))}
          </ol>
        ))}
      </div>
    </div>
  );
}
