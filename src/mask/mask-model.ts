/**
 * The mask painter's logic without a canvas or React: what an edit is, the painter's own
 * undo/redo (apart from the graph's), brush sizes and pressure, which key does what, the size the
 * mask is painted at, and the pixel conversions between a saved mask (grey: white repaints) and
 * the painting layer (coverage in alpha). Pure, so it is tested without a DOM.
 */
import { ENGINES, type EngineId } from '../../api/catalog';
import { imageDefaults } from '../../api/image-schema';
import type { MaskPaint } from '../../nodes/inpaint';

export type MaskTool = 'brush' | 'eraser';

/** A point of a stroke in mask pixels, with the stroke's width there (pressure may vary it). */
export interface StrokePoint {
  x: number;
  y: number;
  w: number;
}

/** One step of the painter's history. */
export type MaskOp =
  | { type: 'stroke'; tool: MaskTool; points: StrokePoint[] }
  | { type: 'clear' }
  | { type: 'invert' };

/** Steps kept for undo; older ones are baked into the starting layer (replay stays short). */
export const MASK_UNDO_LIMIT = 100;

/**
 * The painter's undo/redo, stroke by stroke. The painter redraws the layer from its starting
 * image and `ops` after an undo; `push` hands back the steps that fell off the end, which the
 * painter draws into that starting image so nothing painted is lost.
 */
export class MaskHistory {
  private done: MaskOp[] = [];
  private undone: MaskOp[] = [];

  constructor(private readonly limit = MASK_UNDO_LIMIT) {}

  /** Steps in effect, oldest first. */
  get ops(): readonly MaskOp[] {
    return this.done;
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** Records a step (dropping what could be redone); returns steps past the limit, oldest first. */
  push(op: MaskOp): MaskOp[] {
    this.done.push(op);
    this.undone = [];
    return this.done.length > this.limit ? this.done.splice(0, this.done.length - this.limit) : [];
  }

  /** The step taken back, or undefined when there is none. */
  undo(): MaskOp | undefined {
    const op = this.done.pop();
    if (op) this.undone.push(op);
    return op;
  }

  /** The step put back (draw it again), or undefined when there is none. */
  redo(): MaskOp | undefined {
    const op = this.undone.pop();
    if (op) this.done.push(op);
    return op;
  }
}

export const MIN_BRUSH = 2;
export const MAX_BRUSH = 400;
export const DEFAULT_BRUSH = 48;

/** The next brush size for `[` (smaller) and `]` (larger): steps of a quarter, at least 1 px. */
export function stepBrush(size: number, direction: -1 | 1): number {
  const next = direction > 0 ? Math.max(size + 1, Math.round(size * 1.25)) : Math.min(size - 1, Math.round(size * 0.8));
  return clampBrush(next);
}

export function clampBrush(size: number): number {
  return Math.min(MAX_BRUSH, Math.max(MIN_BRUSH, Math.round(size)));
}

/**
 * The stroke width at a point: a pen's pressure scales it (never below a tenth, so a light touch
 * still marks) when pressure is wanted; a mouse or touch reports no real pressure and paints at size.
 */
export function strokeWidth(size: number, pointer: { pointerType: string; pressure: number }, usePressure: boolean): number {
  if (!usePressure || pointer.pointerType !== 'pen' || !(pointer.pressure > 0)) return size;
  return size * Math.max(0.1, Math.min(1, pointer.pressure));
}

/** What a key does in the painter, or undefined for keys it leaves alone. */
export type MaskCommand = 'brush' | 'eraser' | 'smaller' | 'larger' | 'invert' | 'undo' | 'redo' | 'save';

export function maskCommand(key: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): MaskCommand | undefined {
  if (key.altKey) return undefined;
  const mod = key.ctrlKey || key.metaKey;
  const k = key.key.toLowerCase();
  if (mod) {
    if (k === 'z') return key.shiftKey ? 'redo' : 'undo';
    if (k === 'y' && !key.shiftKey) return 'redo';
    if (k === 's' && !key.shiftKey) return 'save';
    return undefined;
  }
  switch (key.key) {
    case '[': return 'smaller';
    case ']': return 'larger';
    default: break;
  }
  if (key.shiftKey) return undefined;
  if (k === 'b') return 'brush';
  if (k === 'e') return 'eraser';
  if (k === 'x') return 'invert';
  return undefined;
}

const isSize = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 8192;

/**
 * The size to paint at: the node's resolution (its width and height, or its engine's default
 * pair), which is what the API resizes both the image and the mask to before inpainting.
 */
export function maskSizeFor(params: Readonly<Record<string, unknown>>): { width: number; height: number } {
  const engine: EngineId = (ENGINES as readonly unknown[]).includes(params.engine) ? (params.engine as EngineId) : 'sdxl';
  const fallback = imageDefaults(engine);
  if (isSize(params.width) && isSize(params.height)) return { width: params.width, height: params.height };
  return { width: fallback.width, height: fallback.height };
}

/** A stored painted mask, or null for anything else. */
export function asMaskPaint(value: unknown): MaskPaint | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<MaskPaint>;
  return typeof v.b64 === 'string' && isSize(v.width) && isSize(v.height) ? { b64: v.b64, width: v.width, height: v.height } : null;
}

/** The largest box of the mask's shape that fits in `maxWidth` × `maxHeight`, whole pixels. */
export function fitBox(width: number, height: number, maxWidth: number, maxHeight: number): { width: number; height: number } {
  const scale = Math.min(maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/** A point on screen, in mask pixels, given where the painting area sits on screen. */
export function toMaskPoint(
  client: { x: number; y: number },
  rect: { left: number; top: number; width: number; height: number },
  size: { width: number; height: number },
): { x: number; y: number } {
  return {
    x: ((client.x - rect.left) / rect.width) * size.width,
    y: ((client.y - rect.top) / rect.height) * size.height,
  };
}

/** The colour the painting layer is drawn in (its opacity is the overlay slider). */
export const TINT: readonly [number, number, number] = [255, 56, 120];
export const TINT_CSS = `rgb(${TINT.join(', ')})`;

/**
 * A saved mask's pixels (RGBA, grey: white repaints, black keeps) as the painting layer holds
 * them: the tint colour with the mask's lightness as alpha. Converts `rgba` in place.
 */
export function greyToCoverage(rgba: Uint8ClampedArray, tint: readonly [number, number, number] = TINT): void {
  for (let i = 0; i < rgba.length; i += 4) {
    const light = Math.round(0.299 * rgba[i]! + 0.587 * rgba[i + 1]! + 0.114 * rgba[i + 2]!);
    // A transparent pixel is unpainted, as the engines read transparency in a mask.
    rgba[i + 3] = Math.round((light * rgba[i + 3]!) / 255);
    rgba[i] = tint[0];
    rgba[i + 1] = tint[1];
    rgba[i + 2] = tint[2];
  }
}

/** Share of the image the layer marks for repainting, 0 to 1 (partly painted pixels count partly). */
export function coverageOf(rgba: Uint8ClampedArray): number {
  if (rgba.length === 0) return 0;
  let sum = 0;
  for (let i = 3; i < rgba.length; i += 4) sum += rgba[i]!;
  return sum / ((rgba.length / 4) * 255);
}

/** "none", "less than 1%", "37%", "all": how much of the image will be repainted. */
export function describeCoverage(fraction: number): string {
  if (fraction <= 0) return 'none';
  if (fraction >= 0.9995) return 'all';
  if (fraction < 0.005) return 'less than 1%';
  return `${Math.round(fraction * 100)}%`;
}
