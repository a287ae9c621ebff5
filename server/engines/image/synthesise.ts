/**
 * One image, start to finish except the JPEG encode: scene from the prompt, the mode's input
 * mixed in, conditioning, refiner, style, then upscale with grain and the full-size composites.
 */
import { type ResolvedImageRequest } from '../../../api/image';
import { ENGINE_FAMILY } from '../../../api/catalog';
import { buildScene } from './prompt-field';
import { renderScene } from './render';
import { condition, grainAt, leaveUnresolved, refine, samplerTraits, unresolvedAt } from './conditioning';
import { applyStyle, applyStyleLightly, lightGrain, STYLE_TABLE } from './styles';
import { promptStyle } from './prompt-style';
import { upscaleWithGrain } from './upscale';
import { blendWithInput, mixInputIntoField } from './img2img';
import { blendMasked } from './inpaint';
import { guideField, overlayControl, type ControlMap } from './controlnet';
import { compositeSubjects, type SubjectSamples } from './transfer';
import { hashInts, hashString } from '../random';
import { type Field } from './field';
import { type RawImage } from './codec';

/** The working field is this many times smaller than the output on each side. */
export const FIELD_SCALE = 4;

/** The working field's size for an output size (every supported size divides exactly). */
export function fieldSize(width: number, height: number): { fw: number; fh: number } {
  return { fw: Math.max(1, Math.round(width / FIELD_SCALE)), fh: Math.max(1, Math.round(height / FIELD_SCALE)) };
}

/** Input images decoded once per request, shared by every image of the batch. */
export interface PreparedInputs {
  init?: RawImage;
  /** The init image box-averaged to field size. */
  initField?: Field;
  mask?: RawImage;
  control?: ControlMap;
  subjects?: SubjectSamples[];
}

/** Renders one image of the request with this seed, as RGB bytes of width x height. */
export function synthesise(req: ResolvedImageRequest, seed: number, inputs: PreparedInputs): Buffer {
  const { width, height } = req;
  const family = ENGINE_FAMILY[req.engine];
  const { fw, fh } = fieldSize(width, height);
  // The model (engine family and checkpoint) changes the whole composition, as a different
  // model given the same seed would.
  const modelSalt = hashString(`${family}\u0000${req.checkpoint ?? ''}`);
  const imageSeed = hashInts(seed, modelSalt);
  const scene = buildScene(req, imageSeed);
  const field = renderScene(scene, fw, fh);

  if (inputs.initField) mixInputIntoField(field, inputs.initField, req.strength);
  if (inputs.control) guideField(field, inputs.control, scene, imageSeed);

  const sampler = samplerTraits(req.sampler);
  const effectiveSteps = req.steps * sampler.stepFactor;
  leaveUnresolved(field, unresolvedAt(effectiveSteps), hashInts(imageSeed, hashString(req.sampler)));
  condition(field, scene, {
    cfgScale: req.cfg_scale, family, checkpoint: req.checkpoint, loras: req.loras, vae: req.vae,
  });
  const refiner = family === 'sdxl' && req.use_refiner;
  if (refiner) refine(field, req.high_noise_frac);
  const style = req.style_preset !== undefined ? STYLE_TABLE[req.style_preset] : undefined;
  let styleGrain = style?.grain ?? 1;
  if (style) applyStyle(field, style, imageSeed);
  else {
    const worded = promptStyle(req.prompt);
    if (worded) {
      const spec = STYLE_TABLE[worded.preset];
      applyStyleLightly(field, spec, imageSeed, worded.amount);
      styleGrain = lightGrain(spec, worded.amount);
    }
  }

  const grain = grainAt(effectiveSteps) * sampler.grain * styleGrain * (refiner ? 0.8 : 1);
  const out = upscaleWithGrain(field, width, height, {
    kernel: style?.kernel ?? 'bilinear',
    grain,
    monoGrain: style?.monoGrain,
    seed: hashInts(imageSeed, hashString(req.sampler), 7),
  });

  if (inputs.control) overlayControl(out, inputs.control);
  if (inputs.subjects) compositeSubjects(out, width, inputs.subjects, seed);
  if (inputs.init && inputs.mask) blendMasked(out, inputs.init.data, inputs.mask.data, req.strength);
  else if (inputs.init) blendWithInput(out, inputs.init.data, req.strength);
  return out;
}
