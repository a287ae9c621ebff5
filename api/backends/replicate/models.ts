/**
 * The Replicate models Atelier knows, by family: which modes each does, its input fields and
 * their ranges, from each model's API page (https://replicate.com/<owner>/<name>/api, the input
 * schema of the version pinned here). Community models run by version (`POST /v1/predictions`
 * with `version`); official models by name (`POST /v1/models/{owner}/{name}/predictions`). A model
 * this table does not know is sent by name (or by the version written after `:`), with the
 * prompt and seed only, and the review says so.
 */
import type { EngineId, Sampler } from '../../catalog';
import type { ImageMode } from '../../image-schema';

export type ReplicateFamily = 'sdxl' | 'sd' | 'sdxl-controlnet' | 'flux-dev' | 'flux-schnell' | 'sd35' | 'other';

export interface ReplicateModel {
  /** `owner/name`. */
  ref: string;
  /** The version run: pinned here for a community model, or written after `:` in the setting. */
  version?: string;
  family: ReplicateFamily;
  who: string;
  modes: readonly ImageMode[];
  /** Most images one prediction makes (num_outputs' maximum; 1 where there is no num_outputs). */
  maxImages: number;
  /** Whether `Prefer: wait` is worth asking: the model usually answers within seconds. */
  fast: boolean;
}

const KNOWN: readonly ReplicateModel[] = [
  { ref: 'stability-ai/sdxl', version: '7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc', family: 'sdxl', who: 'SDXL on Replicate', modes: ['text-to-image', 'image-to-image', 'inpainting'], maxImages: 4, fast: false },
  { ref: 'stability-ai/stable-diffusion', version: 'ac732df83cea7fff18b8472768c88ad041fa750ff7682a21affe81863cbe77e4', family: 'sd', who: 'Stable Diffusion on Replicate', modes: ['text-to-image'], maxImages: 4, fast: false },
  { ref: 'lucataco/sdxl-controlnet', version: '06d6fae3b75ab68a28cd2900afa6033166910dd09fd9751047043a5bbb4c184b', family: 'sdxl-controlnet', who: 'SDXL ControlNet (canny) on Replicate', modes: ['controlnet'], maxImages: 1, fast: false },
  { ref: 'black-forest-labs/flux-dev', family: 'flux-dev', who: 'FLUX.1 [dev] on Replicate', modes: ['text-to-image', 'image-to-image'], maxImages: 4, fast: false },
  { ref: 'black-forest-labs/flux-schnell', family: 'flux-schnell', who: 'FLUX.1 [schnell] on Replicate', modes: ['text-to-image'], maxImages: 4, fast: true },
  { ref: 'stability-ai/stable-diffusion-3.5-large', family: 'sd35', who: 'Stable Diffusion 3.5 Large on Replicate', modes: ['text-to-image', 'image-to-image'], maxImages: 1, fast: false },
  { ref: 'stability-ai/stable-diffusion-3.5-medium', family: 'sd35', who: 'Stable Diffusion 3.5 Medium on Replicate', modes: ['text-to-image', 'image-to-image'], maxImages: 1, fast: false },
];

/** The model each engine runs when the settings name none. */
export const DEFAULT_MODELS: Record<EngineId, string> = {
  sdxl: 'stability-ai/sdxl',
  sd: 'stability-ai/stable-diffusion',
  'controlnet-sdxl': 'lucataco/sdxl-controlnet',
};

export const KNOWN_MODELS: readonly string[] = KNOWN.map((m) => m.ref);

const REF = /^([a-z0-9][a-z0-9_.-]*)\/([a-z0-9][a-z0-9_.-]*)(?::([0-9a-f]{64}))?$/i;

/** Whether a setting names a model the way Replicate does: `owner/name` or `owner/name:version`. */
export function modelRefProblem(setting: string): string | undefined {
  return REF.test(setting) ? undefined : `'${setting}' is not a Replicate model: write owner/name, or owner/name:version (a 64-character version id)`;
}

/** The table's entry for a setting, with the setting's own version when it has one. */
export function replicateModel(setting: string): ReplicateModel {
  const match = REF.exec(setting);
  const ref = match === null ? setting : `${match[1]!}/${match[2]!}`;
  const version = match?.[3];
  const known = KNOWN.find((m) => m.ref === ref);
  if (known !== undefined) return version === undefined ? known : { ...known, version };
  return { ref, ...(version === undefined ? {} : { version }), family: 'other', who: `${ref} on Replicate`, modes: ['text-to-image'], maxImages: 1, fast: false };
}

/** Replicate's SDXL schedulers (stability-ai/sdxl's `scheduler` enum) for the service's samplers. */
export const SDXL_SCHEDULERS: Record<Sampler, { name: string; exact: boolean }> = {
  DDIM: { name: 'DDIM', exact: true },
  DDPM: { name: 'K_EULER_ANCESTRAL', exact: false },
  DPM_PLUS_PLUS_2M_KARRAS: { name: 'KarrasDPM', exact: true },
  DPM_SINGLE: { name: 'DPMSolverMultistep', exact: false },
  DPM_SOLVER_MULTISTEP: { name: 'DPMSolverMultistep', exact: true },
  K_EULER: { name: 'K_EULER', exact: true },
  K_EULER_ANCESTRAL: { name: 'K_EULER_ANCESTRAL', exact: true },
  PNDM: { name: 'PNDM', exact: true },
  UNI_PC: { name: 'DPMSolverMultistep', exact: false },
  DPM_2: { name: 'HeunDiscrete', exact: false },
  DPM_2_ANCESTRAL: { name: 'K_EULER_ANCESTRAL', exact: false },
  DPM_PLUS_PLUS_SDE_KARRAS: { name: 'KarrasDPM', exact: false },
  HEUN: { name: 'HeunDiscrete', exact: true },
  KLMS: { name: 'K_EULER', exact: false },
};

/** stability-ai/stable-diffusion's `scheduler` enum for the service's samplers. */
export const SD_SCHEDULERS: Record<Sampler, { name: string; exact: boolean }> = {
  ...SDXL_SCHEDULERS,
  DPM_PLUS_PLUS_2M_KARRAS: { name: 'DPMSolverMultistep', exact: false },
  DPM_PLUS_PLUS_SDE_KARRAS: { name: 'DPMSolverMultistep', exact: false },
  HEUN: { name: 'K_EULER', exact: false },
  DPM_2: { name: 'K_EULER', exact: false },
  KLMS: { name: 'KLMS', exact: true },
};

/** The aspect ratios FLUX and SD 3.5 take on Replicate (`aspect_ratio`), as width:height. */
export const ASPECT_RATIOS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'] as const;

/** The ratio nearest to width:height (compared as logarithms, so 2:1 and 1:2 are as far from 1:1). */
export function nearestAspect(width: number, height: number): { ratio: (typeof ASPECT_RATIOS)[number]; exact: boolean } {
  const wanted = Math.log(width / height);
  let best: (typeof ASPECT_RATIOS)[number] = '1:1';
  let gap = Infinity;
  for (const ratio of ASPECT_RATIOS) {
    const [w, h] = ratio.split(':').map(Number) as [number, number];
    const d = Math.abs(Math.log(w / h) - wanted);
    if (d < gap) {
      best = ratio;
      gap = d;
    }
  }
  return { ratio: best, exact: gap < 1e-9 };
}
