/**
 * Drawing the mask: the painting layer is a canvas at the mask's own size holding coverage as
 * alpha in the tint colour (so it is also what is shown over the image, at the overlay's
 * opacity). Brush strokes add coverage, the eraser removes it, invert flips it, and saving turns
 * it into the opaque PNG the API expects: white where painted, black where kept, kept in the
 * asset store (the node's parameter holds its reference).
 */
import type { MaskPaint } from '../../nodes/inpaint';
import { imageBlob, storeImage } from '../files/assets';
import { coverageOf, greyToCoverage, TINT_CSS, type MaskOp, type StrokePoint } from './mask-model';

export function createCanvas(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

export function context2d(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  // Coverage is read back after every stroke; a CPU-side canvas makes that cheap.
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('this browser cannot draw on a 2D canvas');
  return ctx;
}

function strokeStyle(ctx: CanvasRenderingContext2D, tool: 'brush' | 'eraser'): void {
  ctx.globalCompositeOperation = tool === 'brush' ? 'source-over' : 'destination-out';
  ctx.fillStyle = TINT_CSS;
  ctx.strokeStyle = TINT_CSS;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
}

/**
 * Draws the part of a stroke from point `from` on: a dot for its first point, then a line from
 * each point to the next with round caps, so fast moves leave a smooth, gap-free line.
 */
export function drawStroke(ctx: CanvasRenderingContext2D, tool: 'brush' | 'eraser', points: readonly StrokePoint[], from = 0): void {
  ctx.save();
  strokeStyle(ctx, tool);
  if (from === 0 && points[0]) {
    const p = points[0];
    ctx.beginPath();
    ctx.arc(p.x, p.y, p.w / 2, 0, Math.PI * 2);
    ctx.fill();
  }
  for (let i = Math.max(1, from); i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    ctx.lineWidth = (a.w + b.w) / 2;
    ctx.beginPath();
    ctx.moveTo(a.x, a.y);
    ctx.lineTo(b.x, b.y);
    ctx.stroke();
  }
  ctx.restore();
}

/** Applies one step of the history to the layer. */
export function applyOp(layer: HTMLCanvasElement, op: MaskOp): void {
  const ctx = context2d(layer);
  if (op.type === 'stroke') {
    drawStroke(ctx, op.tool, op.points);
    return;
  }
  if (op.type === 'clear') {
    ctx.clearRect(0, 0, layer.width, layer.height);
    return;
  }
  // Invert: full tint with the current coverage cut out leaves alpha = 1 - coverage.
  const flipped = createCanvas(layer.width, layer.height);
  const f = context2d(flipped);
  f.fillStyle = TINT_CSS;
  f.fillRect(0, 0, flipped.width, flipped.height);
  f.globalCompositeOperation = 'destination-out';
  f.drawImage(layer, 0, 0);
  copyInto(layer, flipped);
}

/** Replaces `target`'s pixels with `source`'s (same size). */
export function copyInto(target: HTMLCanvasElement, source: CanvasImageSource): void {
  const ctx = context2d(target);
  ctx.save();
  ctx.globalCompositeOperation = 'copy';
  ctx.drawImage(source, 0, 0, target.width, target.height);
  ctx.restore();
}

/** Redraws the layer from its starting image and the steps in effect (after an undo). */
export function replay(layer: HTMLCanvasElement, start: HTMLCanvasElement, ops: readonly MaskOp[]): void {
  copyInto(layer, start);
  for (const op of ops) applyOp(layer, op);
}

/** Share of the image the layer marks for repainting, 0 to 1. */
export function layerCoverage(layer: HTMLCanvasElement): number {
  return coverageOf(context2d(layer).getImageData(0, 0, layer.width, layer.height).data);
}

/**
 * Draws a saved mask into `layer` (stretched to its size, as the API stretches a mask to the
 * request's size). Throws when the saved bytes do not decode as an image.
 */
export async function loadMask(layer: HTMLCanvasElement, source: string): Promise<void> {
  const bitmap = await createImageBitmap(await imageBlob(source, 'image/png'));
  try {
    const ctx = context2d(layer);
    ctx.clearRect(0, 0, layer.width, layer.height);
    ctx.drawImage(bitmap, 0, 0, layer.width, layer.height);
    const pixels = ctx.getImageData(0, 0, layer.width, layer.height);
    greyToCoverage(pixels.data);
    ctx.putImageData(pixels, 0, 0);
  } finally {
    bitmap.close();
  }
}

/** The layer as the API's mask: an opaque PNG, white where painted and black where kept. */
export async function exportMask(layer: HTMLCanvasElement): Promise<MaskPaint> {
  const { width, height } = layer;
  const white = createCanvas(width, height);
  const w = context2d(white);
  w.drawImage(layer, 0, 0);
  w.globalCompositeOperation = 'source-in';
  w.fillStyle = '#ffffff';
  w.fillRect(0, 0, width, height);

  const out = createCanvas(width, height);
  const o = context2d(out);
  o.fillStyle = '#000000';
  o.fillRect(0, 0, width, height);
  o.drawImage(white, 0, 0);
  const blob = await new Promise<Blob>((resolve, reject) => {
    out.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not encode the mask as PNG'))), 'image/png');
  });
  return { b64: await storeImage(new Uint8Array(await blob.arrayBuffer()), 'image/png'), width, height };
}
