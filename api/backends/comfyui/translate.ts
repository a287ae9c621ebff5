/**
 * What ComfyUI is sent for a request, decided field by field: each field is kept, approximated
 * (with a note), left out (with a note), or refuses the request. Pure and fast: the images are
 * not touched (their ComfyUI file names are given once uploaded, placeholders before).
 */
import { ENGINE_FAMILY, isPublicAsset, type EngineId } from '../../catalog';
import { imageDefaults, type ImageRequest } from '../../image-schema';
import type { FieldIssue } from '../../issues';
import { backendAssetName, type BackendNamesConfig } from '../config';
import { applyStyle, STYLES } from '../styles';
import type { NeededName } from '../known-names';
import type { TranslationNote } from '../types';
import type { ImageField, Recipe } from './graph';
import { COMFY_SAMPLERS } from '../samplers';

export interface TranslateOptions {
  names?: BackendNamesConfig;
  /** ComfyUI's file names of the uploaded input images; placeholders when absent. */
  images?: Partial<Record<ImageField, string>>;
  /** The seed chosen for this run when the request leaves it random. */
  seed?: number;
}

export interface Translation {
  refusals: FieldIssue[];
  notes: TranslationNote[];
  /** Absent when a refusal makes the request impossible. */
  recipe?: Recipe;
  /** The files the recipe loads, to check against what ComfyUI lists (empty without a recipe). */
  needs: NeededName[];
}

/** The files a recipe makes ComfyUI load, by the request field each comes from. */
function neededFiles(recipe: Recipe, embeddings: readonly NeededName[]): NeededName[] {
  return [
    { field: 'checkpoint', list: 'checkpoints', name: recipe.checkpoint.file, fromSettings: recipe.checkpoint.fromSettings },
    ...(recipe.refiner === undefined ? [] : [{ field: 'use_refiner', list: 'checkpoints', name: recipe.refiner.file, fromSettings: true } as const]),
    ...(recipe.vae === undefined ? [] : [{ field: 'vae', list: 'vaes', name: recipe.vae } as const]),
    ...recipe.loras.map((l): NeededName => ({ field: l.field, list: 'loras', name: l.file })),
    ...(recipe.controlnet === undefined ? [] : [{ field: 'controlnet', list: 'controlnets', name: recipe.controlnet.file } as const]),
    ...embeddings,
  ];
}

const RANDOM_SEED = 'random, chosen when the run starts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Textual inversions: ComfyUI loads an embedding where the prompt says `embedding:<file>`, so
 * each trigger word becomes that reference. Returns the prompts and the assets never referred to.
 */
function withEmbeddings(texts: (string | undefined)[], inversions: [string, string][], names: BackendNamesConfig | undefined) {
  const unused: string[] = [];
  let out = texts;
  for (const [asset, word] of inversions) {
    const pattern = new RegExp(`(?<![\\w:])${escapeRegExp(word)}(?!\\w)`, 'giu');
    const reference = `embedding:${backendAssetName(names, asset)}`;
    let found = false;
    out = out.map((text) => text?.replace(pattern, () => { found = true; return reference; }));
    if (!found) unused.push(asset);
  }
  return { texts: out, unused };
}

function placeholder(field: ImageField): string {
  return `<${field}, uploaded to ComfyUI's input folder when the run starts>`;
}

export function translate(engine: EngineId, req: ImageRequest, options: TranslateOptions = {}): Translation {
  const { names } = options;
  const refusals: FieldIssue[] = [];
  const notes: TranslationNote[] = [];
  const defaults = imageDefaults(engine);
  const sdxl = ENGINE_FAMILY[engine] === 'sdxl';

  if (req.transfer_images !== undefined) {
    refusals.push({ path: 'transfer_images', message: "ComfyUI's core nodes cannot do subject transfer (IP-Adapter and InstantID are custom nodes this backend does not use); run this node on the service's API instead" });
  }
  let checkpoint: Recipe['checkpoint'] | undefined;
  if (req.checkpoint !== undefined) checkpoint = { file: backendAssetName(names, req.checkpoint), fromSettings: false };
  else if (names?.checkpoint !== undefined) checkpoint = { file: names.checkpoint, fromSettings: true };
  else refusals.push({ path: 'checkpoint', message: `needs a checkpoint file: the node names none, and none is set for the ${engine} engine in the backend's settings (Settings → Image backend in the editor, --checkpoint ${engine}=FILE in the CLI)` });

  const steps = req.steps ?? defaults.steps;
  const strength = req.strength ?? defaults.strength;
  const init = req.init_image === undefined ? undefined : { denoise: strength, masked: req.mask_image !== undefined };

  let refiner: Recipe['refiner'];
  if (sdxl && (req.use_refiner ?? defaults.use_refiner)) {
    const start = init === undefined ? 0 : Math.round(steps * (1 - init.denoise));
    const frac = req.high_noise_frac ?? defaults.high_noise_frac;
    const wanted = Math.round(steps * frac);
    const split = Math.min(Math.max(wanted, start + 1), steps - 1);
    if (names?.refiner === undefined) {
      refusals.push({ path: 'use_refiner', message: "needs the SDXL refiner checkpoint: set it in the backend's settings (Settings → Image backend in the editor, --refiner FILE in the CLI)" });
    } else if (steps - start < 2) {
      notes.push({ field: 'use_refiner', treatment: 'not-sent', message: `with ${steps - start} step to run there is nothing to share with the refiner, so the base checkpoint does it all` });
    } else {
      refiner = { file: names.refiner, split };
      if (split !== wanted) {
        notes.push({ field: 'high_noise_frac', treatment: 'approximated', message: `${frac} would give the ${split === start + 1 ? 'base' : 'refiner'} no step of its own; the base hands over at step ${split} of ${steps}` });
      }
    }
  }

  const sampler = COMFY_SAMPLERS[req.sampler ?? defaults.sampler];
  if (sampler.approximation !== undefined) {
    notes.push({ field: 'sampler', treatment: 'approximated', message: `${req.sampler ?? defaults.sampler} becomes ComfyUI's ${sampler.sampler_name} with the ${sampler.scheduler} scheduler: ${sampler.approximation}` });
  }

  const embedded = withEmbeddings(
    [req.prompt, sdxl ? req.prompt_2 : undefined, req.negative_prompt, sdxl ? req.negative_prompt_2 : undefined],
    Object.entries(req.textual_inversions ?? {}), names,
  );
  for (const asset of embedded.unused) {
    notes.push({ field: `textual_inversions.${asset}`, treatment: 'not-sent', message: `its trigger word '${req.textual_inversions?.[asset] ?? ''}' is in no prompt, so ComfyUI is never asked to use the embedding` });
  }
  let [prompt = '', prompt2, negative = '', negative2] = embedded.texts;
  if (sdxl && req.style_preset !== undefined && req.style_preset !== 'base') {
    const preset = req.style_preset;
    ({ prompt, negative } = applyStyle(preset, prompt, negative));
    // prompt_2 feeds SDXL's other text encoder (text_g): left plain, it would pull against the style.
    const second = applyStyle(preset, prompt2 ?? '', negative2 ?? '');
    if (prompt2 !== undefined) prompt2 = second.prompt;
    if (negative2 !== undefined) negative2 = second.negative;
    notes.push({ field: 'style_preset', treatment: 'approximated', message: `ComfyUI has no style presets: '${preset}' becomes words around the prompt ("${STYLES[preset].template}") and in the negative prompt` });
  }

  let controlnet: Recipe['controlnet'];
  if (engine === 'controlnet-sdxl' && req.controlnet !== undefined) {
    const preprocess = isPublicAsset(req.controlnet) && req.controlnet_preprocess !== false;
    const canny = preprocess && /canny/i.test(req.controlnet);
    controlnet = { file: backendAssetName(names, req.controlnet), canny };
    if (preprocess && !canny) {
      const kind = /depth/i.test(req.controlnet) ? 'depth' : /openpose/i.test(req.controlnet) ? 'pose' : 'control map';
      notes.push({ field: 'controlnet_preprocess', treatment: 'not-sent', message: `ComfyUI's core nodes have no ${kind} estimator (comfyui_controlnet_aux is a custom node), so controlnet_image is used as the map as it is` });
    }
    if (refiner !== undefined) {
      notes.push({ field: 'use_refiner', treatment: 'approximated', message: 'the refiner pass does not see the ControlNet: it follows the prompt only' });
    }
  }

  const batch = req.num_images ?? defaults.num_images;
  if (batch > 1) {
    notes.push({ field: 'num_images', treatment: 'approximated', message: `ComfyUI makes the ${batch} images as one batch from one seed: an image is reproduced by the same seed with the same num_images, not on its own` });
  }

  if (refusals.length > 0 || checkpoint === undefined) return { refusals, notes, needs: [] };
  const images: Partial<Record<ImageField, string>> = {};
  for (const field of ['init_image', 'mask_image', 'controlnet_image'] as const) {
    if (req[field] !== undefined) images[field] = options.images?.[field] ?? placeholder(field);
  }
  const recipe: Recipe = {
    sdxl, checkpoint, refiner, loras: Object.entries(req.loras ?? {}).map(([asset, weight]) => ({ field: `loras.${asset}`, file: backendAssetName(names, asset), weight })),
    prompt, negative, width: req.width ?? defaults.width, height: req.height ?? defaults.height, steps, cfg: req.cfg_scale ?? defaults.cfg_scale,
    sampler, seed: req.seed ?? options.seed ?? RANDOM_SEED, batch, init, controlnet, images,
  };
  if (req.vae !== undefined) recipe.vae = backendAssetName(names, req.vae);
  if (prompt2 !== undefined) recipe.prompt2 = prompt2;
  if (negative2 !== undefined) recipe.negative2 = negative2;
  const embeddings = Object.keys(req.textual_inversions ?? {}).filter((asset) => !embedded.unused.includes(asset))
    .map((asset): NeededName => ({ field: `textual_inversions.${asset}`, list: 'embeddings', name: backendAssetName(names, asset) }));
  return { refusals, notes, recipe, needs: neededFiles(recipe, embeddings) };
}
