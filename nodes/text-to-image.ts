/** Text to image: `generate/{sdxl,sd}` from a prompt. */
import { IMAGE_OUTPUTS, PARAM_PORTS, textToImageParams, type TextToImageParams } from './image-params';
import * as code from './image-request';
import type { NodeDefinition } from './types';

export const textToImageNode: NodeDefinition<TextToImageParams> = {
  type: 'text-to-image',
  version: 1,
  title: 'Text to image',
  category: 'image',
  mainFields: ['prompt', 'negative_prompt', 'width', 'num_images', 'seed'],
  description: 'Draws images from a prompt with SDXL v1.0 or SD v1.5.',
  params: textToImageParams,
  inputs: PARAM_PORTS,
  outputs: IMAGE_OUTPUTS,
  validate: (p, connected) => code.imageParamIssues(p, {}, connected),
  imageRequest: (p, connected) => code.standInRequest(p, {}, connected),
  cacheable: (p) => typeof p.seed === 'number',
  async run({ params: p, ctx }) {
    return code.runImageRequest(p, {}, ctx);
  },
};
