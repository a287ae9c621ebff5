/**
 * Merge (subject transfer): `transfer_images` under a trigger word on `generate/{sdxl,sd}`.
 *
 * Samples arrive through one `samples` list input (an `images` output, or a single image, which
 * converts to a list of one) and up to four single `sample_N` inputs, so several loaders can be
 * wired in without a list-building node. All connected samples are sent, list first.
 */
import { IMAGE_OUTPUTS, PARAM_PORTS, mergeParams, type MergeParams } from './image-params';
import { ParamIssuesError } from './errors';
import * as code from './image-request';
import type { NodeDefinition, PortSpec } from './types';
import { imagesOf } from './values';

/** The most sample images one request carries (ImageRequestSchema's transfer_images rule). */
export const MAX_SAMPLES = 8;
const SINGLE_SAMPLE_PORTS = ['sample_1', 'sample_2', 'sample_3', 'sample_4'] as const;
const SAMPLE_PORTS = ['samples', ...SINGLE_SAMPLE_PORTS] as const;

const sampleInputs: PortSpec[] = [
  { name: 'samples', kind: 'images', label: 'Samples', optional: true, description: 'Photos of the subject, as a list.' },
  ...SINGLE_SAMPLE_PORTS.map((name, i): PortSpec => ({
    name, kind: 'image', label: `Sample ${i + 1}`, optional: true, description: 'One more photo of the subject.',
  })),
];

export const mergeNode: NodeDefinition<MergeParams> = {
  type: 'merge',
  version: 1,
  title: 'Merge (subject transfer)',
  category: 'image',
  mainFields: ['prompt', 'trigger_word', 'num_images', 'seed'],
  description: 'Carries the subject of sample photos into a new image; the prompt names it by the trigger word.',
  params: mergeParams,
  inputs: [...sampleInputs, ...PARAM_PORTS],
  outputs: IMAGE_OUTPUTS,
  validate(p, connected) {
    const issues = code.imageParamIssues(p, code.placeholderImages('samples'), connected);
    if (!SAMPLE_PORTS.some((port) => connected.has(port))) {
      issues.push({ param: 'samples', message: 'connect at least one sample image of the subject' });
    }
    return issues;
  },
  imageRequest(p, connected) {
    return code.standInRequest(p, code.placeholderImages('samples'), connected);
  },
  cacheable: (p) => typeof p.seed === 'number',
  async run({ params: p, inputs, ctx }) {
    const samples = SAMPLE_PORTS.flatMap((port) => imagesOf(inputs[port])).map((image) => image.b64);
    if (samples.length === 0) {
      throw new ParamIssuesError([{ param: 'samples', message: 'no sample images arrived; connect at least one' }]);
    }
    if (samples.length > MAX_SAMPLES) {
      throw new ParamIssuesError([{ param: 'samples', message: `${samples.length} sample images arrived; one request takes at most ${MAX_SAMPLES}` }]);
    }
    return code.runImageRequest(p, { samples }, ctx);
  },
};
