/**
 * What the AUTOMATIC1111 double knows, copied from AUTOMATIC1111 1.10: its samplers and their
 * favourite schedules, its schedules, how it resolves a sampler and schedule name, how it finds a
 * checkpoint, and the ControlNet extension's preprocessor names.
 *
 * Source: AUTOMATIC1111/stable-diffusion-webui modules/sd_samplers_kdiffusion.py,
 * modules/sd_samplers_timesteps.py, modules/sd_samplers_lcm.py, modules/sd_schedulers.py,
 * modules/sd_samplers.py (`get_sampler_and_scheduler`), modules/sd_models.py (`CheckpointInfo`,
 * `get_closet_checkpoint_match`); Mikubill/sd-webui-controlnet scripts/preprocessor/.
 */

export interface SamplerData {
  name: string;
  aliases: string[];
  /** The schedule `Automatic` means for this sampler. */
  scheduler?: string;
}

export const SAMPLERS: SamplerData[] = [
  { name: 'DPM++ 2M', aliases: ['k_dpmpp_2m'], scheduler: 'karras' },
  { name: 'DPM++ SDE', aliases: ['k_dpmpp_sde'], scheduler: 'karras' },
  { name: 'DPM++ 2M SDE', aliases: ['k_dpmpp_2m_sde'], scheduler: 'exponential' },
  { name: 'DPM++ 2M SDE Heun', aliases: ['k_dpmpp_2m_sde_heun'], scheduler: 'exponential' },
  { name: 'DPM++ 2S a', aliases: ['k_dpmpp_2s_a'], scheduler: 'karras' },
  { name: 'DPM++ 3M SDE', aliases: ['k_dpmpp_3m_sde'], scheduler: 'exponential' },
  { name: 'Euler a', aliases: ['k_euler_a', 'k_euler_ancestral'] },
  { name: 'Euler', aliases: ['k_euler'] },
  { name: 'LMS', aliases: ['k_lms'] },
  { name: 'Heun', aliases: ['k_heun'] },
  { name: 'DPM2', aliases: ['k_dpm_2'], scheduler: 'karras' },
  { name: 'DPM2 a', aliases: ['k_dpm_2_a'], scheduler: 'karras' },
  { name: 'DPM fast', aliases: ['k_dpm_fast'] },
  { name: 'DPM adaptive', aliases: ['k_dpm_ad'] },
  { name: 'Restart', aliases: ['restart'], scheduler: 'karras' },
  { name: 'DDIM', aliases: ['ddim'] },
  { name: 'DDIM CFG++', aliases: ['ddim_cfgpp'] },
  { name: 'PLMS', aliases: ['plms'] },
  { name: 'UniPC', aliases: ['unipc'] },
  { name: 'LCM', aliases: ['k_lcm'] },
];

export interface SchedulerData {
  name: string;
  label: string;
  aliases?: string[];
}

export const SCHEDULERS: SchedulerData[] = [
  { name: 'automatic', label: 'Automatic' }, { name: 'uniform', label: 'Uniform' }, { name: 'karras', label: 'Karras' },
  { name: 'exponential', label: 'Exponential' }, { name: 'polyexponential', label: 'Polyexponential' },
  { name: 'sgm_uniform', label: 'SGM Uniform', aliases: ['SGMUniform'] }, { name: 'kl_optimal', label: 'KL Optimal' },
  { name: 'align_your_steps', label: 'Align Your Steps' }, { name: 'simple', label: 'Simple' }, { name: 'normal', label: 'Normal' },
  { name: 'ddim', label: 'DDIM' }, { name: 'beta', label: 'Beta' },
];

/** `get_sampler_and_scheduler`: an unknown sampler is the first one, an unknown schedule `Automatic`. */
export function resolveSampler(samplerName: string | null | undefined, schedulerName: string | null | undefined, convertAutomatic = true): [string, string] {
  const byName = (n: string | null | undefined) => SCHEDULERS.find((s) => s.name === n || s.label === n);
  let found = byName(schedulerName) ?? SCHEDULERS[0]!;
  let name = samplerName || SAMPLERS[0]!.name;
  for (const scheduler of SCHEDULERS) {
    for (const option of [scheduler.label, scheduler.name, ...(scheduler.aliases ?? [])]) {
      if (name.endsWith(` ${option}`)) {
        found = scheduler;
        name = name.slice(0, -(option.length + 1));
        break;
      }
    }
  }
  const sampler = SAMPLERS.find((s) => s.name === name) ?? SAMPLERS[0]!;
  if (convertAutomatic && sampler.scheduler === found.name) found = SCHEDULERS[0]!;
  return [sampler.name, found.label];
}

export interface CheckpointFile {
  /** Path below the models folder, e.g. `sd_xl_base_1.0.safetensors` or `XL/juggernaut.safetensors`. */
  name: string;
  /** The first ten hex digits of its sha256. */
  shorthash: string;
}

const stem = (path: string) => (path.split('/').pop() ?? path).replace(/\.[^.]*$/, '');

export const checkpointTitle = (c: CheckpointFile) => `${c.name} [${c.shorthash}]`;

/** `CheckpointInfo.ids`, for `checkpoint_aliases` (the legacy 8-digit hash left out). */
export function checkpointIds(c: CheckpointFile): string[] {
  const modelName = c.name.replace(/[/\\]/g, '_').replace(/\.[^.]*$/, '');
  return [modelName, checkpointTitle(c), c.name, stem(c.name), c.shorthash, `${stem(c.name)} [${c.shorthash}]`];
}

export function sdModelsJson(checkpoints: CheckpointFile[]) {
  return checkpoints.map((c) => ({
    title: checkpointTitle(c), model_name: c.name.replace(/[/\\]/g, '_').replace(/\.[^.]*$/, ''), hash: c.shorthash,
    sha256: `${c.shorthash}${'0'.repeat(54)}`, filename: `/models/Stable-diffusion/${c.name}`, config: null,
  }));
}

/** `get_closet_checkpoint_match`: an alias, else the shortest title that contains the name. */
export function closestCheckpoint(checkpoints: CheckpointFile[], search: string): CheckpointFile | undefined {
  const exact = checkpoints.find((c) => checkpointIds(c).includes(search));
  if (exact !== undefined) return exact;
  const containing = (s: string) => checkpoints.filter((c) => checkpointTitle(c).includes(s)).sort((a, b) => checkpointTitle(a).length - checkpointTitle(b).length)[0];
  return containing(search) ?? containing(search.replace(/\s\[[^\]]+\]\s*$/, ''));
}

export const stemOf = stem;

/** Preprocessor names and labels the extension registers (a few of them). */
export const PREPROCESSORS = new Set([
  'none', 'canny', 'depth', 'depth_midas', 'openpose', 'lineart', 'lineart_realistic', 'pidinet_scribble', 'scribble_pidinet',
  'tile_resample', 'inpaint_only', 'inpaint', 'inpaint_global_harmonious', 'invert',
]);

export interface A1111DoubleOptions {
  checkpoints?: CheckpointFile[];
  /** The title of the checkpoint loaded at start; the first one by default. */
  loaded?: string;
  vaes?: string[];
  loras?: { name: string; alias?: string }[];
  embeddings?: { loaded: string[]; skipped: string[] };
  /** The ControlNet extension's models; absent: the extension is not installed. */
  controlnetModels?: string[];
  /** `--api-auth user:password`. */
  apiAuth?: string;
  /** Each sampling step waits for `step()`. */
  manual?: boolean;
  /** Width × height × batch size beyond which the GPU runs out of memory. */
  vramPixels?: number;
  /** The built-in Lora extension turned off: no `/sdapi/v1/loras`. */
  loraExtensionOff?: boolean;
  /** An AUTOMATIC1111 older than 1.9, without `/sdapi/v1/schedulers`. */
  before19?: boolean;
}
