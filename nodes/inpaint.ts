/**
 * Inpaint: `init_image` + `mask_image` on `generate/{sdxl,sd}`; white in the mask is repainted.
 *
 * The mask comes from the `mask` input when it is connected, otherwise from the mask painted in
 * the editor (`mask_paint`, kept in the workflow file like an Image loader's picture, and in the
 * editor's document as a reference into the asset store). A connected
 * port wins so that wiring a mask never depends on remembering to clear a painted one. Either way
 * the base64 goes into the request exactly as it is: nothing here decodes or re-encodes it.
 */
import { z } from 'zod';
import { ImageSourceImageSchema } from './image-source';
import { ParamIssuesError } from './errors';
import { IMAGE_OUTPUTS, PARAM_PORTS, inpaintParams } from './image-params';
import * as code from './image-request';
import type { NodeDefinition, ParamIssue, Value } from './types';

const size = z.number().int('must be a whole number').positive('must be positive').max(65_535, 'is larger than 65535');

/** A mask painted in the editor: a PNG (white repaints, black keeps) and the size it was painted at. */
export const MaskPaintSchema = z.strictObject({
  b64: ImageSourceImageSchema,
  width: size,
  height: size,
});
export type MaskPaint = z.infer<typeof MaskPaintSchema>;

export const inpaintNodeParams = z.strictObject({
  ...inpaintParams.shape,
  mask_paint: MaskPaintSchema.nullable().default(null).meta({
    title: 'Painted mask',
    description: 'Paint over the image: white is repainted, black is kept. Used when the Mask input is not connected.',
  }),
});
export type InpaintNodeParams = z.infer<typeof inpaintNodeParams>;

/** The message of the issue a node without any mask gets, on its `mask` input. */
export const NO_MASK = 'needs a mask: connect an image to the Mask input, or paint one (Paint mask…)';

/** Where the mask comes from: the connected port, else the painted one, else nowhere. */
export function maskSource(p: Pick<InpaintNodeParams, 'mask_paint'>, maskConnected: boolean): 'port' | 'painted' | 'none' {
  if (maskConnected) return 'port';
  return p.mask_paint === null ? 'none' : 'painted';
}

/** The base64 mask the request sends: the connected input's, else the painted one. */
function maskImage(p: InpaintNodeParams, inputs: Readonly<Record<string, Value | undefined>>): string {
  if (inputs.mask !== undefined) return code.requireImage(inputs, 'mask');
  if (p.mask_paint !== null) return p.mask_paint.b64;
  throw new ParamIssuesError([{ param: 'mask', message: NO_MASK }]);
}

export const inpaintNode: NodeDefinition<InpaintNodeParams> = {
  type: 'inpaint',
  version: 1,
  title: 'Inpaint',
  category: 'image',
  mainFields: ['prompt', 'negative_prompt', 'mask_paint', 'num_images', 'seed'],
  description: 'Repaints the white area of a mask on an image, after a prompt. Wire a mask in, or paint one on the node.',
  params: inpaintNodeParams,
  inputs: [
    { name: 'image', kind: 'image', label: 'Image', description: 'The image to paint onto.' },
    {
      name: 'mask',
      kind: 'image',
      label: 'Mask',
      // Optional as a port: a mask painted on the node stands in for it (validate says when neither is there).
      optional: true,
      description: 'White marks the area to repaint. When connected, it is used instead of the painted mask.',
    },
    ...PARAM_PORTS,
  ],
  outputs: IMAGE_OUTPUTS,
  validate(p, connected) {
    const issues: ParamIssue[] = maskSource(p, connected.has('mask')) === 'none' ? [{ param: 'mask', message: NO_MASK }] : [];
    return [...issues, ...code.imageParamIssues(p, code.placeholderImages('init_image', 'mask_image'), connected)];
  },
  imageRequest(p, connected) {
    return code.standInRequest(p, code.placeholderImages('init_image', 'mask_image'), connected);
  },
  cacheable: (p) => typeof p.seed === 'number',
  // async: a missing input becomes a rejected promise, never a throw out of run().
  async run({ params: p, inputs, ctx }) {
    return code.runImageRequest(p, { init_image: code.requireImage(inputs, 'image'), mask_image: maskImage(p, inputs) }, ctx);
  },
};
