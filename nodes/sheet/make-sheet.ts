/**
 * The contact sheet itself: images tiled in a grid, each scaled into its cell, with its caption
 * under it, as one PNG. Cells are `cellSize` wide and as tall as the tallest picture needs (a
 * square at most), so a sheet of landscape pictures has no bands. Images are decoded one at a
 * time, so a sheet of 64 large images holds one of them in memory at once beside the sheet.
 */
import { base64ToBytes, bytesToBase64 } from '../../api/image-data';
import type { ImageData } from '../types';
import { ADVANCE, LINE_HEIGHT, wrapText } from './font';
import { RasterError, createRaster, decodeImage, drawFitted, drawText, encodePng, textHeight, textWidth, type Rgb } from './raster';

export interface SheetOptions {
  /** Pictures per row; 0 makes the grid as square as it can be. */
  columns: number;
  /** The width of each cell, in pixels; its height is at most the same. */
  cellSize: number;
  /** Space between cells and round the edge, in pixels. */
  gap: number;
  background: 'dark' | 'light';
}

/** The largest sheet made, in pixels across and down, and in all. */
export const MAX_SIDE = 16_384;
export const MAX_PIXELS = 64_000_000;
const CAPTION_LINES = 2;

const COLOURS: Readonly<Record<SheetOptions['background'], { fill: Rgb; text: Rgb }>> = {
  dark: { fill: [30, 30, 46], text: [205, 214, 244] },
  light: { fill: [255, 255, 255], text: [34, 34, 34] },
};

/** A problem with the sheet as asked, naming the parameter to change where one is at fault. */
export class SheetError extends Error {
  override readonly name = 'SheetError';
  constructor(message: string, readonly param?: string) {
    super(message);
  }
}

export interface SheetLayout {
  columns: number;
  rows: number;
  /** Each picture's box: `cellSize` wide, as tall as the tallest picture needs. */
  cellHeight: number;
  width: number;
  height: number;
  /** Font pixels per pixel of the captions, and the caption band under each cell (0 without captions). */
  fontScale: number;
  captionHeight: number;
}

/** The height of a cell for pictures of these sizes: square when one is unknown, or taller than wide. */
export function cellHeightFor(images: readonly Pick<ImageData, 'width' | 'height'>[], cellSize: number): number {
  let ratio = 0;
  for (const { width, height } of images) {
    if (width === undefined || height === undefined || width <= 0 || height <= 0) return cellSize;
    ratio = Math.max(ratio, height / width);
  }
  return Math.max(16, Math.round(cellSize * Math.min(1, Math.max(0.25, ratio))));
}

/** Where everything goes for `count` images, with or without captions; a SheetError when too large. */
export function layoutSheet(count: number, captioned: boolean, o: SheetOptions, cellHeight = o.cellSize): SheetLayout {
  const columns = o.columns > 0 ? Math.min(o.columns, count) : Math.ceil(Math.sqrt(count));
  const rows = Math.ceil(count / columns);
  const fontScale = o.cellSize >= 192 ? 2 : 1;
  const captionHeight = captioned ? textHeight(CAPTION_LINES, fontScale) + 2 * fontScale + Math.ceil(o.gap / 2) : 0;
  const width = o.gap + columns * (o.cellSize + o.gap);
  const height = o.gap + rows * (cellHeight + captionHeight + o.gap);
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) {
    throw new SheetError(`would make a sheet of ${width}×${height} pixels, larger than the ${MAX_SIDE} pixels a side (and ${MAX_PIXELS / 1e6} megapixels) it makes; choose a smaller cell size or more columns`, 'cell_size');
  }
  return { columns, rows, cellHeight, width, height, fontScale, captionHeight };
}

/** The sheet of `images` (captions by position; fewer captions than images leave the rest bare), as a PNG. */
export async function makeSheet(images: readonly ImageData[], captions: readonly string[] | undefined, o: SheetOptions): Promise<ImageData> {
  if (images.length === 0) throw new SheetError('no images arrived: a contact sheet needs at least one');
  const captioned = captions !== undefined && captions.length > 0;
  const layout = layoutSheet(images.length, captioned, o, cellHeightFor(images, o.cellSize));
  const colours = COLOURS[o.background];
  const sheet = createRaster(layout.width, layout.height, colours.fill);
  const perLine = Math.floor((o.cellSize + layout.fontScale) / (ADVANCE * layout.fontScale));
  for (let i = 0; i < images.length; i++) {
    const x = o.gap + (i % layout.columns) * (o.cellSize + o.gap);
    const y = o.gap + Math.floor(i / layout.columns) * (layout.cellHeight + layout.captionHeight + o.gap);
    let picture;
    try {
      picture = await decodeImage(base64ToBytes(images[i]!.b64), colours.fill);
    } catch (error) {
      const why = error instanceof RasterError ? error.message : `could not be read (${(error as Error).message})`;
      throw new SheetError(`image ${i + 1} of ${images.length} ${why}`);
    }
    drawFitted(sheet, picture, x, y, o.cellSize, layout.cellHeight);
    const caption = captions?.[i];
    if (caption === undefined) continue;
    const lines = wrapText(caption, perLine, CAPTION_LINES);
    lines.forEach((line, n) => {
      const left = x + Math.floor((o.cellSize - textWidth(line.length, layout.fontScale)) / 2);
      const top = y + layout.cellHeight + 2 * layout.fontScale + n * LINE_HEIGHT * layout.fontScale;
      drawText(sheet, line, left, top, layout.fontScale, colours.text);
    });
  }
  const png = await encodePng(sheet);
  return { b64: bytesToBase64(png), mime: 'image/png', width: layout.width, height: layout.height };
}
