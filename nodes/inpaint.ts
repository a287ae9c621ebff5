/** Inpaint: `init_image` + `mask_image` on `generate/{sdxl,sd}`; white in the mask is repainted. */
import { IMAGE_OUTPUTS, PARAM_PORTS, inpaintParams, type InpaintParams } from './image-params';
import { imageParamIssues, placeholderImages, requireImage, runImageRequest } from './image-request';
import type { NodeDefinition } from './types';

export const inpaintNode: NodeDefinition<InpaintParams> = {
  type: 'inpaint',
  version: 1,
  title: 'Inpaint',
  category: 'image',
  description: 'Repaints the white area of a mask on an image, after a prompt.',
  params: inpaintParams,
  inputs: [
    { name: 'image', kind: 'image', label: 'Image', description: 'The image to paint onto.' },
    { name: 'mask', kind: 'image', label: 'Mask', description: 'White marks the area to repaint.' },
    ...PARAM_PORTS,
  ],
  outputs: IMAGE_OUTPUTS,
  validate: (p, connected) => imageParamIssues(p, placeholderImages('init_image', 'mask_image'), connected),
  cacheable: (p) => typeof p.seed === 'number',
  run: ({ params: p, inputs, ctx }) =>
    runImageRequest(p, { init_image: requireImage(inputs, 'image'), mask_image: requireImage(inputs, 'mask') }, ctx),
};
