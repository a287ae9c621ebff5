/**
 * The Replicate models the double serves, with the input schema of the version each runs, as
 * their API pages give it (https://replicate.com/<owner>/<name>/api, "Input schema"):
 * stability-ai/sdxl 7762fd07, stability-ai/stable-diffusion ac732df8, lucataco/sdxl-controlnet
 * 06d6fae3 (community models, run by version), and the official black-forest-labs/flux-dev,
 * flux-schnell and stability-ai/stable-diffusion-3.5-large / -medium (run by name).
 */
import type { FieldRule, InputSchema } from './hosted-schema';

const int = (min: number, max: number): FieldRule => ({ type: 'int', min, max });
const num = (min: number, max: number): FieldRule => ({ type: 'number', min, max });
const str: FieldRule = { type: 'string' };
const bool: FieldRule = { type: 'boolean' };
const file: FieldRule = { type: 'file' };
const SIXTY_FOURS = Array.from({ length: 16 }, (_, i) => (i + 1) * 64);
const ASPECTS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'];

export interface DoubleModel {
  owner: string;
  name: string;
  /** The version it runs; official models are run by name and need none. */
  version?: string;
  official: boolean;
  schema: InputSchema;
  /** Answers one URL instead of a list (lucataco/sdxl-controlnet's output schema). */
  singleOutput?: boolean;
  /** Images per prediction: num_outputs, or one. */
  outputs(input: Record<string, unknown>): number;
}

const byOutputs = (input: Record<string, unknown>) => (typeof input.num_outputs === 'number' ? input.num_outputs : 1);

export const REPLICATE_MODELS: readonly DoubleModel[] = [
  {
    owner: 'stability-ai', name: 'sdxl', version: '7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc', official: false, outputs: byOutputs,
    schema: {
      prompt: str, negative_prompt: str, image: file, mask: file, width: { type: 'int' }, height: { type: 'int' }, num_outputs: int(1, 4),
      scheduler: { type: 'enum', values: ['DDIM', 'DPMSolverMultistep', 'HeunDiscrete', 'KarrasDPM', 'K_EULER_ANCESTRAL', 'K_EULER', 'PNDM'] },
      num_inference_steps: int(1, 500), guidance_scale: num(1, 50), prompt_strength: num(0, 1), seed: { type: 'int' },
      refine: { type: 'enum', values: ['no_refiner', 'expert_ensemble_refiner', 'base_image_refiner'] }, high_noise_frac: num(0, 1), refine_steps: { type: 'int' },
      apply_watermark: bool, lora_scale: num(0, 1), replicate_weights: str, disable_safety_checker: bool,
    },
  },
  {
    owner: 'stability-ai', name: 'stable-diffusion', version: 'ac732df83cea7fff18b8472768c88ad041fa750ff7682a21affe81863cbe77e4', official: false, outputs: byOutputs,
    schema: {
      prompt: str, negative_prompt: str, width: { type: 'enum', values: SIXTY_FOURS }, height: { type: 'enum', values: SIXTY_FOURS }, num_outputs: int(1, 4),
      scheduler: { type: 'enum', values: ['DDIM', 'K_EULER', 'DPMSolverMultistep', 'K_EULER_ANCESTRAL', 'PNDM', 'KLMS'] },
      num_inference_steps: int(1, 500), guidance_scale: num(1, 20), seed: { type: 'int' },
    },
  },
  {
    owner: 'lucataco', name: 'sdxl-controlnet', version: '06d6fae3b75ab68a28cd2900afa6033166910dd09fd9751047043a5bbb4c184b', official: false, singleOutput: true, outputs: () => 1,
    schema: { image: { type: 'file', required: true }, prompt: str, negative_prompt: str, condition_scale: num(0, 1), num_inference_steps: int(1, 500), seed: { type: 'int' } },
  },
  {
    owner: 'black-forest-labs', name: 'flux-dev', official: true, outputs: byOutputs,
    schema: {
      prompt: { type: 'string', required: true }, aspect_ratio: { type: 'enum', values: ASPECTS }, image: file, prompt_strength: num(0, 1), num_outputs: int(1, 4),
      num_inference_steps: int(1, 50), guidance: num(0, 10), seed: { type: 'int' }, output_format: { type: 'enum', values: ['webp', 'jpg', 'png'] },
      output_quality: int(0, 100), disable_safety_checker: bool, go_fast: bool, megapixels: { type: 'enum', values: ['1', '0.25'] },
    },
  },
  {
    owner: 'black-forest-labs', name: 'flux-schnell', official: true, outputs: byOutputs,
    schema: {
      prompt: { type: 'string', required: true }, aspect_ratio: { type: 'enum', values: ASPECTS }, num_outputs: int(1, 4), num_inference_steps: int(1, 4),
      seed: { type: 'int' }, output_format: { type: 'enum', values: ['webp', 'jpg', 'png'] }, output_quality: int(0, 100), disable_safety_checker: bool,
      go_fast: bool, megapixels: { type: 'enum', values: ['1', '0.25'] },
    },
  },
  ...['large', 'medium'].map((size): DoubleModel => ({
    owner: 'stability-ai', name: `stable-diffusion-3.5-${size}`, official: true, outputs: () => 1,
    schema: {
      prompt: { type: 'string', required: true }, aspect_ratio: { type: 'enum', values: ASPECTS }, cfg: num(0, 20), steps: int(1, 50), seed: { type: 'int' },
      image: file, prompt_strength: num(0, 1), output_format: { type: 'enum', values: ['webp', 'jpg', 'png'] }, output_quality: int(0, 100),
    },
  })),
];
