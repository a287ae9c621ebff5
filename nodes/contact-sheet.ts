/**
 * Contact sheet: tiles a list of images into one picture, each in a cell with its caption
 * from a text list under it (the prompts that made them, say). It takes both lists whole, so it
 * runs once after a fan-out, with every item. Drawn in pure JavaScript (sheet/), loaded when it
 * first runs, so the editor's worker, the CLI and the tests make the same PNG.
 */
import { z } from 'zod';
import { ParamIssuesError } from './errors';
import type { NodeDefinition } from './types';
import { imagesOf, textsOf } from './values';

const params = z.strictObject({
  columns: z.number().int().min(0).max(32).default(0)
    .meta({ title: 'Columns', description: 'Pictures per row; 0 makes the grid as square as it can be.' }),
  cell_size: z.number().int().min(64).max(1024).default(256)
    .meta({ title: 'Cell size', description: 'The width of each picture on the sheet, in pixels; pictures keep their shape, none taller than wide.' }),
  gap: z.number().int().min(0).max(64).default(8)
    .meta({ title: 'Gap', description: 'Space between the cells and round the edge, in pixels.' }),
  background: z.enum(['dark', 'light']).default('dark')
    .meta({ title: 'Background', optionLabels: { dark: 'Dark', light: 'Light' } }),
});
export type ContactSheetParams = z.infer<typeof params>;

export const contactSheetNode: NodeDefinition<ContactSheetParams> = {
  type: 'contact-sheet',
  version: 1,
  title: 'Contact sheet',
  category: 'output',
  mainFields: ['columns', 'cell_size'],
  description: 'Tiles a list of images into one, with captions from a text list under them.',
  params,
  inputs: [
    { name: 'images', kind: 'images', label: 'Images', description: 'The pictures, in order (every item of a fan-out).' },
    { name: 'captions', kind: 'texts', label: 'Captions', optional: true, description: 'One caption per picture, in the same order (the prompts, say).' },
  ],
  outputs: [{ name: 'image', kind: 'image', label: 'Sheet', description: 'The sheet, as a PNG.' }],
  localWork: true,
  async run({ params: p, inputs, ctx }) {
    const images = imagesOf(inputs.images);
    const captions = inputs.captions === undefined ? undefined : textsOf(inputs.captions);
    const { makeSheet, SheetError } = await import('./sheet/make-sheet');
    ctx.progress(0, `tiling ${images.length} image${images.length === 1 ? '' : 's'}`);
    try {
      const sheet = await makeSheet(images, captions, { columns: p.columns, cellSize: p.cell_size, gap: p.gap, background: p.background });
      const short = captions !== undefined && captions.length < images.length ? `; ${images.length - captions.length} without a caption` : '';
      ctx.progress(1, `${sheet.width}×${sheet.height}${short}`);
      return { image: { kind: 'image', value: sheet } };
    } catch (error) {
      if (error instanceof SheetError && error.param !== undefined) throw new ParamIssuesError([{ param: error.param, message: error.message }]);
      throw error;
    }
  },
};
