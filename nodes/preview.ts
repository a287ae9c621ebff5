/**
 * Preview / save: the end of a branch. It has no output ports; its run hands the value back as
 * `shown` (PREVIEW_OUTPUT) so the executor reports it in the node's outputs, and the editor shows,
 * downloads and keeps it in the run history while the CLI writes it to disk.
 */
import { z } from 'zod';
import type { NodeDefinition, PortKind } from './types';

/** Name under which Preview's run returns what it shows. */
export const PREVIEW_OUTPUT = 'shown';
// Lists are taken whole: a Preview after a fan-out shows every item, and runs once.
const ACCEPTS: readonly PortKind[] = ['image', 'images', 'text', 'texts', 'number'];

const params = z.strictObject({
  filename: z.string().max(100)
    .regex(/^[\p{L}\p{N}_\- .]*$/u, 'may hold only letters, digits, spaces, -, _ and . (no folders)')
    .refine((s) => !s.startsWith('.'), 'cannot start with a dot')
    .default('')
    .meta({ title: 'File name', description: 'Name to save under, without extension; empty uses the node id.' }),
});
export type PreviewParams = z.infer<typeof params>;

export const previewNode: NodeDefinition<PreviewParams> = {
  type: 'preview',
  version: 1,
  title: 'Preview / save',
  category: 'output',
  mainFields: ['filename'],
  description: 'Shows an image, a list of images, text or a list of texts, and saves it.',
  params,
  inputs: [{ name: 'value', kind: 'image', accepts: ACCEPTS, label: 'Value', description: 'An image, text, or a list of either (every item of a fan-out).' }],
  outputs: [],
  run: ({ inputs }) => {
    const value = inputs.value;
    if (value === undefined) return Promise.reject(new Error("input 'value' is not connected: nothing to show"));
    return Promise.resolve({ [PREVIEW_OUTPUT]: value });
  },
};
