/** ControlNet: `generate/controlnet-sdxl` with a checkpoint and a control image. */
import { IMAGE_OUTPUTS, PARAM_PORTS, controlNetParams, type ControlNetParams } from './image-params';
import { imageParamIssues, placeholderImages, requireImage, runImageRequest } from './image-request';
import type { NodeDefinition } from './types';

export const controlNetNode: NodeDefinition<ControlNetParams> = {
  type: 'controlnet',
  version: 1,
  title: 'ControlNet',
  category: 'image',
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
  validate: (p, connected) => imageParamIssues(p, placeholderImages('controlnet_image'), connected),
  cacheable: (p) => typeof p.seed === 'number',
  run: ({ params: p, inputs, ctx }) => runImageRequest(p, { controlnet_image: requireImage(inputs, 'control_image') }, ctx),
};
