/** Image to image: `init_image` + `strength` on `generate/{sdxl,sd}`. */
import { IMAGE_OUTPUTS, PARAM_PORTS, imageToImageParams, type ImageToImageParams } from './image-params';
import * as code from './image-request';
import type { NodeDefinition } from './types';

export const imageToImageNode: NodeDefinition<ImageToImageParams> = {
  type: 'image-to-image',
  version: 1,
  title: 'Image to image',
  category: 'image',
  mainFields: ['prompt', 'negative_prompt', 'strength', 'num_images', 'seed'],
  description: 'Redraws an image after a prompt; strength sets how far it may move from the original.',
  params: imageToImageParams,
  inputs: [
    { name: 'image', kind: 'image', label: 'Image', description: 'The starting image, resized to the chosen size.' },
    ...PARAM_PORTS,
  ],
  outputs: IMAGE_OUTPUTS,
  validate(p, connected) {
    return code.imageParamIssues(p, code.placeholderImages('init_image'), connected);
  },
  imageRequest(p, connected) {
    return code.standInRequest(p, code.placeholderImages('init_image'), connected);
  },
  cacheable: (p) => typeof p.seed === 'number',
  async run({ params: p, inputs, ctx }) {
    return code.runImageRequest(p, { init_image: code.requireImage(inputs, 'image') }, ctx);
  },
};
