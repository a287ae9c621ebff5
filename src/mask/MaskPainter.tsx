/**
 * The inpaint mask painter: a dialog over the picture arriving at the node's Image input, at the
 * node's resolution (what the API stretches image and mask to). White paint marks what is
 * repainted. It keeps its own undo (Ctrl+Z inside it never touches the graph's history); Save
 * hands back the mask as a PNG, which the caller stores as one graph edit; Cancel or Escape discards.
 */
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import type { MaskPaint } from '../../nodes/inpaint';
import { Dialog } from '../ui/Dialog';
import { clampBrush, DEFAULT_BRUSH, describeCoverage, fitBox, maskCommand, stepBrush, type MaskTool } from './mask-model';
import { MaskToolbar } from './MaskToolbar';
import type { SourceImage } from './source-image';
import { useMaskLayer } from './use-mask-layer';
import './mask.css';

export interface MaskPainterProps {
  /** The node's name on screen. */
  nodeLabel: string;
  /** The mask's size in pixels: the node's resolution. */
  size: { width: number; height: number };
  initial: MaskPaint | null;
  source: SourceImage;
  onSave(mask: MaskPaint): void;
  onClose(): void;
}

/** The painting area's size on screen: as large as the window allows, in the mask's shape. */
function useStageBox(size: { width: number; height: number }) {
  const measure = () => fitBox(size.width, size.height, Math.min(1100, window.innerWidth - 96), Math.max(160, Math.min(820, window.innerHeight - 260)));
  const [box, setBox] = useState(measure);
  useEffect(() => {
    const onResize = () => setBox(measure());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [size.width, size.height]);
  return box;
}

export default function MaskPainter({ nodeLabel, size, initial, source, onSave, onClose }: MaskPainterProps) {
  const [tool, setTool] = useState<MaskTool>('brush');
  const [brush, setBrush] = useState(() => clampBrush(Math.max(DEFAULT_BRUSH, Math.round(size.width / 20))));
  const [usePressure, setUsePressure] = useState(true);
  const [opacity, setOpacity] = useState(0.55);
  const [blank, setBlank] = useState(false);
  const [imageFailed, setImageFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | undefined>();
  const layer = useMaskLayer(size, initial, { tool, size: brush, usePressure });
  const box = useStageBox(size);
  const cursor = useRef<HTMLDivElement>(null);
  const showStage = (source.url !== undefined && !imageFailed) || blank;

  const save = async () => {
    if (saving || !layer.status.ready) return;
    setSaving(true);
    setSaveError(undefined);
    try {
      const mask = await layer.save();
      if (mask) onSave(mask);
      onClose();
    } catch (error) {
      // Shown in the dialog: a toast would sit under the modal, unseen.
      setSaving(false);
      setSaveError(`The mask could not be saved: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  // The painter is modal: every key is its own, seen before the editor's listeners (capture
  // phase) and kept from them, so Ctrl+Z, Ctrl+Enter or Ctrl+O never reach the graph. Default
  // actions (Tab, Escape closing the dialog, arrows on a slider) still happen.
  const commands = useRef({ ...layer, save });
  commands.current = { ...layer, save };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      e.stopPropagation();
      const command = maskCommand(e);
      if (command === undefined || e.defaultPrevented) return;
      e.preventDefault();
      // Held down, undo repeats; invert would only flicker.
      if (e.repeat && command === 'invert') return;
      const c = commands.current;
      switch (command) {
        case 'brush': setTool('brush'); break;
        case 'eraser': setTool('eraser'); break;
        case 'smaller': setBrush((s) => stepBrush(s, -1)); break;
        case 'larger': setBrush((s) => stepBrush(s, 1)); break;
        case 'invert': c.invert(); break;
        case 'undo': c.undo(); break;
        case 'redo': c.redo(); break;
        case 'save': void c.save(); break;
        default: break;
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  const moveCursor = (e: ReactPointerEvent) => {
    const ring = cursor.current;
    if (!ring) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const d = (brush * box.width) / size.width;
    ring.style.width = ring.style.height = `${d}px`;
    ring.style.transform = `translate(${e.clientX - rect.left - d / 2}px, ${e.clientY - rect.top - d / 2}px)`;
    ring.hidden = false;
  };

  const coverage = describeCoverage(layer.status.coverage);
  const footer = (
    <>
      <span className="mask-status" role="status" aria-live="polite">
        {layer.status.ready ? `Repaints ${coverage} of the image` : 'Reading the saved mask…'}
      </span>
      <button type="button" className="button" onClick={onClose}>Cancel</button>
      <button type="button" className="button primary" aria-keyshortcuts="Control+S" disabled={saving || !layer.status.ready} onClick={() => void save()}>
        Save mask
      </button>
    </>
  );

  return (
    <Dialog title={`Paint mask: ${nodeLabel}`} onClose={onClose} className="mask-dialog" footer={footer}>
      <p className="mask-hint">
        Paint what should be repainted; the rest is kept. {size.width}×{size.height} px, the node’s resolution.{' '}
        {source.url !== undefined && !imageFailed && <>Over {source.from}.</>}
      </p>
      {layer.status.loadError && <p className="mask-notice" role="alert">{layer.status.loadError}</p>}
      {saveError && <p className="mask-notice error" role="alert">{saveError}</p>}
      {!showStage && (
        <div className="mask-notice">
          <p>{imageFailed ? 'The picture could not be shown.' : source.url === undefined ? source.reason : ''}</p>
          <button type="button" className="button" onClick={() => setBlank(true)}>
            Paint on a blank {size.width}×{size.height} canvas
          </button>
        </div>
      )}
      <MaskToolbar
        tool={tool} onTool={setTool} size={brush} onSize={(s) => setBrush(clampBrush(s))}
        usePressure={usePressure} onUsePressure={setUsePressure} opacity={opacity} onOpacity={setOpacity}
        canUndo={layer.status.canUndo} canRedo={layer.status.canRedo} disabled={!showStage || !layer.status.ready}
        onUndo={layer.undo} onRedo={layer.redo} onInvert={layer.invert} onClear={layer.clear}
      />
      <div className={`mask-stage ${source.url === undefined || imageFailed ? 'blank' : ''}`} style={{ width: box.width, height: box.height }} hidden={!showStage}>
        {source.url !== undefined && !imageFailed && (
          <img className="mask-picture" src={source.url} alt="" draggable={false} onError={() => setImageFailed(true)} />
        )}
        <canvas
          ref={layer.layerRef}
          className={`mask-layer ${tool}`}
          width={size.width}
          height={size.height}
          style={{ opacity }}
          role="img"
          aria-label={`Mask painting area: drag to paint with the ${tool}`}
          {...layer.handlers}
          onPointerMove={(e) => {
            moveCursor(e);
            layer.handlers.onPointerMove(e);
          }}
          onPointerLeave={() => {
            if (cursor.current) cursor.current.hidden = true;
          }}
        />
        <div ref={cursor} className="mask-cursor" hidden aria-hidden="true" />
      </div>
    </Dialog>
  );
}
