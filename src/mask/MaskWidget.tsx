/**
 * The inpaint node's "Painted mask" field: a thumbnail of the mask (white repaints), Paint/Edit
 * to open the painter, Remove; and, when the Mask input is connected, a note that the wired mask
 * is the one used. The painter itself loads when first opened, in a portal on the page body so
 * that pointer and wheel events inside it never reach the canvas under the node.
 */
import { lazy, Suspense, useContext, useState, type SyntheticEvent } from 'react';
import { createPortal } from 'react-dom';
import { useObjectUrl } from '../forms/widgets/image';
import type { MaskPaint } from '../../nodes/inpaint';
import type { WidgetProps } from '../forms/widgets/types';
import { RunContext } from '../run/context';
import { useEditor, useEditorStore } from '../store/react';
import { asMaskPaint, maskSizeFor } from './mask-model';
import { findSourceImage, type SourceImage } from './source-image';
import './mask.css';

const MaskPainter = lazy(() => import('./MaskPainter'));

/**
 * React bubbles a portal's events through the component tree, into the node under it (which
 * selects itself on click, moves on arrow keys): they stop at the portal.
 */
const stop = (e: SyntheticEvent) => e.stopPropagation();
const CONTAIN = { onClick: stop, onDoubleClick: stop, onPointerDown: stop, onMouseDown: stop, onKeyDown: stop, onContextMenu: stop, onWheel: stop };

interface Opened {
  source: SourceImage;
  size: { width: number; height: number };
  label: string;
}

export function MaskWidget({ id, nodeId, value, setMany, describedBy, invalid }: WidgetProps) {
  const store = useEditorStore();
  const run = useContext(RunContext);
  const mask = asMaskPaint(value);
  const url = useObjectUrl(mask?.b64, mask ? 'image/png' : undefined)?.url;
  const wired = useEditor((s) => s.index.inbound.get(nodeId)?.has('mask') === true);
  const nodeSize = useEditor((s) => {
    const params = s.index.nodeById.get(nodeId)?.params;
    if (!params) return '';
    const { width, height } = maskSizeFor(params);
    return `${width}×${height}`;
  });
  const paintedSize = mask ? `${mask.width}×${mask.height}` : '';
  const [opened, setOpened] = useState<Opened | null>(null);
  // One graph edit, named after the field ("Undo change painted mask").
  const set = (next: MaskPaint | null) => setMany({ mask_paint: next });

  const titleOf = (nodeIdOf: string) => {
    const node = store.getState().index.nodeById.get(nodeIdOf);
    return node ? node.title?.trim() || store.registry.get(node.type)?.title || node.id : nodeIdOf;
  };

  const open = () => {
    const state = store.getState();
    const node = state.index.nodeById.get(nodeId);
    if (!node) return;
    const size = maskSizeFor(node.params);
    const label = titleOf(nodeId);
    void findSourceImage(state, run, nodeId, titleOf).then((source) => setOpened({ source, size, label }));
  };

  const close = () => {
    if (opened?.source.url !== undefined) opened.source.release();
    setOpened(null);
  };

  return (
    <div className={`mask-field ${invalid ? 'invalid' : ''}`} aria-describedby={describedBy}>
      {mask && url
        ? <img className="thumbnail mask-thumbnail" src={url} alt={`Painted mask, ${mask.width}×${mask.height}: white is repainted`} draggable={false} />
        : !wired && <p className="field-hint">No mask painted yet.</p>}
      {mask && nodeSize !== '' && paintedSize !== nodeSize && (
        <p className="field-hint">Painted at {paintedSize}; it is stretched to the node’s {nodeSize}, as the picture is.</p>
      )}
      {wired && (
        <p className="field-hint mask-wired">
          The Mask input is connected, so its image is the mask{mask ? '; this painted one is kept but not used' : ''}.
        </p>
      )}
      <div className="row">
        <button type="button" className="button small" id={id} onClick={open}>
          {mask ? 'Edit mask…' : 'Paint mask…'}
        </button>
        {mask && <button type="button" className="button small" onClick={() => set(null)}>Remove mask</button>}
      </div>
      {opened && createPortal(
        <div className="mask-portal" {...CONTAIN}>
          <Suspense fallback={null}>
            <MaskPainter
              nodeLabel={opened.label}
              size={opened.size}
              initial={mask}
              source={opened.source}
              onSave={(saved) => set(saved)}
              onClose={close}
            />
          </Suspense>
        </div>,
        document.body,
      )}
    </div>
  );
}
