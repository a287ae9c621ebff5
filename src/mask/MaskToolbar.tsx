/** The painter's controls: tools, brush size, pen pressure, overlay opacity, undo/redo, invert and clear. */
import { MAX_BRUSH, MIN_BRUSH, type MaskTool } from './mask-model';

export interface MaskToolbarProps {
  tool: MaskTool;
  onTool(tool: MaskTool): void;
  size: number;
  onSize(size: number): void;
  usePressure: boolean;
  onUsePressure(on: boolean): void;
  /** Overlay opacity, 0.1 to 1. */
  opacity: number;
  onOpacity(opacity: number): void;
  canUndo: boolean;
  canRedo: boolean;
  disabled: boolean;
  onUndo(): void;
  onRedo(): void;
  onInvert(): void;
  onClear(): void;
}

export function MaskToolbar(p: MaskToolbarProps) {
  const tool = (id: MaskTool, label: string, key: string, hint: string) => (
    <button
      type="button"
      className={`button small mask-tool ${p.tool === id ? 'on' : ''}`}
      aria-pressed={p.tool === id}
      aria-keyshortcuts={key}
      title={`${hint} (${key})`}
      onClick={() => p.onTool(id)}
    >
      {label}
    </button>
  );
  return (
    <div className="mask-toolbar" role="toolbar" aria-label="Mask tools">
      <div className="mask-group">
        {tool('brush', 'Brush', 'B', 'Paint the area to repaint')}
        {tool('eraser', 'Eraser', 'E', 'Take area out of the mask')}
      </div>
      <label className="mask-slider" title="Brush size in pixels of the image ([ smaller, ] larger)">
        <span>Size</span>
        <input
          type="range"
          aria-label="Brush size"
          aria-keyshortcuts="[ ]"
          min={MIN_BRUSH}
          max={MAX_BRUSH}
          value={p.size}
          onChange={(e) => p.onSize(Number(e.target.value))}
        />
        <output aria-hidden="true">{p.size} px</output>
      </label>
      <label className="inline-check" title="A pen's pressure thins the stroke; a mouse always paints at full size">
        <input type="checkbox" checked={p.usePressure} onChange={(e) => p.onUsePressure(e.target.checked)} />
        Pen pressure
      </label>
      <label className="mask-slider" title="How strongly the mask shows over the picture (display only)">
        <span>Overlay</span>
        <input
          type="range"
          aria-label="Overlay opacity"
          min={10}
          max={100}
          step={5}
          value={Math.round(p.opacity * 100)}
          onChange={(e) => p.onOpacity(Number(e.target.value) / 100)}
        />
        <output aria-hidden="true">{Math.round(p.opacity * 100)}%</output>
      </label>
      <div className="mask-group">
        <button type="button" className="button small" aria-keyshortcuts="Control+Z" title="Undo the last stroke, clear or invert (Ctrl+Z)" disabled={p.disabled || !p.canUndo} onClick={p.onUndo}>
          Undo
        </button>
        <button type="button" className="button small" aria-keyshortcuts="Control+Shift+Z Control+Y" title="Redo (Ctrl+Shift+Z)" disabled={p.disabled || !p.canRedo} onClick={p.onRedo}>
          Redo
        </button>
        <button type="button" className="button small" aria-keyshortcuts="X" title="Repaint what is kept and keep what is repainted (X)" disabled={p.disabled} onClick={p.onInvert}>
          Invert
        </button>
        <button type="button" className="button small" title="Empty the mask (undoable)" disabled={p.disabled} onClick={p.onClear}>
          Clear
        </button>
      </div>
    </div>
  );
}
