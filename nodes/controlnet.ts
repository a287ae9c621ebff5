/** ControlNet: `generate/controlnet-sdxl` with a checkpoint and a control image. */
import { IMAGE_OUTPUTS, PARAM_PORTS, controlNetParams, type ControlNetParams } from './image-params';
import * as code from './image-request';
import type { NodeDefinition } from './types';

export const controlNetNode: NodeDefinition<ControlNetParams> = {
  type: 'controlnet',
  version: 1,
  title: 'ControlNet',
  category: 'image',
  mainFields: ['prompt', 'negative_prompt', 'controlnet', 'num_images', 'seed'],
  description: 'Draws after a prompt while following the edges, depth or pose of a control image (SDXL).',
  params: controlNetParams,
  inputs: [
    {
      name: 'control_image',
      kind: 'image',
      label: 'Control image',
      description: 'The image the control map is made from, or the map itself when preprocessing is off.',
    },
    ...PARAM_PORTS,
  ],
  outputs: IMAGE_OUTPUTS,
  validate(p, connected) {
    return code.imageParamIssues(p, code.placeholderImages('controlnet_image'), connected);
  },
  imageRequest(p, connected) {
    return code.standInRequest(p, code.placeholderImages('controlnet_image'), connected);
  },
  cacheable: (p) => typeof p.seed === 'number',
  async run({ params: p, inputs, ctx }) {
    return code.runImageRequest(p, { controlnet_image: code.requireImage(inputs, 'control_image') }, ctx);
  },
};
