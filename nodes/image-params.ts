/**
 * Parameters shared by the image nodes, built from the API's own request fields
 * (api/image.ts ImageRequestSchema) in the API's own names, with the engines' defaults.
 *
 * Departures from the bare request schema, for the editor's sake:
 * - `width`/`height` may be left out: the node then sends the chosen engine's default pair
 *   (1024x1024 for SDXL, 512x512 for SD 1.5), so switching engine never leaves a stale size.
 * - Optional text fields (prompt_2, negative prompts, checkpoint, vae) treat '' as "not set",
 *   which is what a cleared form field gives; empty `loras` and `textual_inversions` likewise.
 * - SDXL-only fields keep their values when the engine is SD 1.5 (the form hides them and the
 *   request leaves them out), so switching back restores them.
 */
import { z } from 'zod';
import { PUBLIC_ASSET_PREFIX, TOKEN_LIMITS, type EngineId } from '../api/catalog';
import { ImageRequestSchema, imageDefaults } from '../api/image-schema';
import { numberParamPort, textParamPort } from './ports';
import type { PortSpec } from './types';

const req = ImageRequestSchema.shape;
/** Identical for every engine except width and height, which are resolved per engine. */
const defaults = imageDefaults('sdxl');
const asset = z.string().max(200);
const assetHint = `Public assets start with '${PUBLIC_ASSET_PREFIX}'; your private ones have no prefix.`;

/**
 * What the editor does with an image node's seed after each run: `fixed` keeps it,
 * `increment` adds one, `random` picks a new one (workers/seeds.ts `nextSeeds`). It is saved with
 * the workflow as the `seed_mode` parameter; the request builder never sends it.
 */
export const SEED_MODES = ['fixed', 'increment', 'random'] as const;
export type SeedMode = (typeof SEED_MODES)[number];

/** The engines a node may choose between; ControlNet has only `controlnet-sdxl`. */
export const T2I_ENGINES = ['sdxl', 'sd'] as const;

/** The fields every image node has, for the given engine choice. */
function commonShape<E extends z.ZodType<string>>(engine: E) {
  return {
    engine,
    prompt: req.prompt.default('').meta({
      title: 'Prompt',
      description: `What to draw. At most ${TOKEN_LIMITS.sdxl} tokens on SDXL, ${TOKEN_LIMITS.sd15} on SD 1.5; (word: 1.3) weights a word.`,
    }),
    prompt_2: req.prompt_2.meta({ title: 'Prompt 2', description: 'SDXL: a human-readable description; when empty, the prompt is used for both.' }),
    negative_prompt: req.negative_prompt.meta({ title: 'Negative prompt', description: 'What to steer away from.' }),
    negative_prompt_2: req.negative_prompt_2.meta({ title: 'Negative prompt 2', description: 'SDXL: a human-readable description of what to avoid.' }),
    sampler: req.sampler.unwrap().default(defaults.sampler).meta({ title: 'Sampler', description: 'Premium samplers cost twice as much.' }),
    // One control sets both, the form's Resolution: problems with either are named by it.
    width: req.width.meta({ title: 'Resolution', description: 'One of the engine’s supported sizes, with height; empty uses the engine’s default.' }),
    height: req.height.meta({ title: 'Resolution', description: 'One of the engine’s supported sizes, with width.' }),
    cfg_scale: req.cfg_scale.unwrap().default(defaults.cfg_scale).meta({ title: 'CFG scale', description: 'Higher follows the prompt more strictly.' }),
    steps: req.steps.unwrap().default(defaults.steps).meta({ title: 'Steps', description: 'More steps: more clarity, proportionally longer.' }),
    num_images: req.num_images.unwrap().default(defaults.num_images).meta({ title: 'Images', description: 'How many images to make.' }),
    seed: req.seed.unwrap().default(null).meta({ title: 'Seed', description: 'Empty picks a random seed each run (and is never cached); a number makes the result reproducible.' }),
    seed_mode: z.enum(SEED_MODES, { error: `must be one of ${SEED_MODES.join(', ')}` }).default('fixed').meta({
      title: 'After each run',
      description: 'What the editor does with a numeric seed after each run: keep it, add one, or pick a new random one. Never sent.',
      // Shapes what happens between runs, never a result: left out of the cache key (workers/prepare.ts).
      editorOnly: true,
    }),
    use_refiner: req.use_refiner.unwrap().default(defaults.use_refiner).meta({ title: 'Use refiner', description: 'SDXL: finish with the refiner model.' }),
    high_noise_frac: req.high_noise_frac.unwrap().default(defaults.high_noise_frac).meta({ title: 'High noise fraction', description: 'SDXL with refiner: the base model’s share of denoising (0.8: base 80%, refiner 20%).' }),
    checkpoint: asset.optional().meta({ title: 'Checkpoint', description: `Model checkpoint. ${assetHint}` }),
    loras: req.loras.meta({ title: 'LoRAs', description: `Asset name to weight. ${assetHint}` }),
    textual_inversions: req.textual_inversions.meta({ title: 'Textual inversions', description: `Asset name to trigger word. ${assetHint}` }),
    vae: asset.optional().meta({ title: 'VAE', description: 'Name of a VAE asset (private names have no prefix).' }),
    style_preset: req.style_preset.meta({ title: 'Style preset', description: 'SDXL: guides the image toward a style.' }),
  };
}

const generatorEngine = z.enum(T2I_ENGINES, { error: `must be one of ${T2I_ENGINES.join(', ')}` })
  .default('sdxl').meta({ title: 'Engine', description: 'SDXL v1.0 or SD v1.5.' });

export const textToImageParams = z.strictObject(commonShape(generatorEngine));
export type TextToImageParams = z.infer<typeof textToImageParams>;

export const imageToImageParams = z.strictObject({
  ...commonShape(generatorEngine),
  strength: req.strength.unwrap().default(defaults.strength).meta({
    title: 'Strength',
    description: 'Noise applied to the image: 0 keeps it, near 1 may ignore it.',
  }),
});
export type ImageToImageParams = z.infer<typeof imageToImageParams>;

export const inpaintParams = textToImageParams;
export type InpaintParams = TextToImageParams;

export const controlNetParams = z.strictObject({
  ...commonShape(z.literal('controlnet-sdxl', { error: "must be 'controlnet-sdxl'" }).default('controlnet-sdxl')
    .meta({ title: 'Engine', description: 'ControlNet on SDXL.' })),
  controlnet: req.controlnet.unwrap().default('svc:canny_sdxl').meta({
    title: 'ControlNet',
    description: `A public ControlNet checkpoint or a private one from your library. ${assetHint}`,
  }),
  controlnet_preprocess: req.controlnet_preprocess.unwrap().default(true).meta({
    title: 'Make control map',
    description: 'Public checkpoints: derive the control map from the image; off uses the image as the map.',
  }),
});
export type ControlNetParams = z.infer<typeof controlNetParams>;

const DEFAULT_TRIGGER = 'sks';
export const mergeParams = z.strictObject({
  ...commonShape(generatorEngine),
  prompt: req.prompt.default(`a photo of ${DEFAULT_TRIGGER}`).meta({
    title: 'Prompt',
    description: 'What to draw; name the subject by the trigger word.',
  }),
  trigger_word: z.string().trim().min(1, 'is required: the word the prompt uses for the subject')
    .max(100).refine((word) => word !== '__proto__', 'cannot be __proto__: choose another word').default(DEFAULT_TRIGGER)
    .meta({ title: 'Trigger word', description: 'The word the prompt uses to refer to the subject of the sample images.' }),
});
export type MergeParams = z.infer<typeof mergeParams>;

/** Any image node's parameters: the common fields, plus the extras of some nodes. */
export type AnyImageParams = Omit<TextToImageParams, 'engine'> & { engine: EngineId } &
  Partial<Pick<ImageToImageParams, 'strength'>> &
  Partial<Pick<ControlNetParams, 'controlnet' | 'controlnet_preprocess'>> &
  Partial<Pick<MergeParams, 'trigger_word'>>;

/** The param inputs every image node has: a prompt and negative prompt from text, a seed from a number. */
/**
 * What an empty prompt means, said by the prompt field when it is empty and by the run when an
 * empty text arrives through the prompt input (a chat answer that came back empty).
 */
export const EMPTY_PROMPT = 'the engine gets no prompt to follow';

export const PARAM_PORTS: readonly PortSpec[] = [
  // A typed empty prompt is the person's choice, flagged in the form and sent; an empty one
  // arriving by wire is an upstream node's accident, and stops the node.
  { ...textParamPort('prompt', 'Prompt', 'Replaces the prompt field when connected.'), emptyMeans: EMPTY_PROMPT },
  textParamPort('negative_prompt', 'Negative prompt', 'Replaces the negative prompt field when connected.'),
  numberParamPort('seed', 'Seed', 'Replaces the seed field when connected.'),
];

/** The two outputs of every image node: the first image, and all of them. */
export const IMAGE_OUTPUTS: readonly PortSpec[] = [
  { name: 'image', kind: 'image', label: 'Image', description: 'The first image.' },
  { name: 'images', kind: 'images', label: 'Images', description: 'Every image made, in order.' },
];
