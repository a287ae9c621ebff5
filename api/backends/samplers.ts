/**
 * The service's samplers as each backend names them: a sampler (`sampler_name`) and a noise
 * schedule (`scheduler`), side by side so a row reads as "what DDPM becomes on each backend".
 *
 * The service's names are diffusers' schedulers, whose default schedule is the model's own even
 * spacing: ComfyUI's `normal` scheduler and AUTOMATIC1111's `Uniform`. Only the `…_KARRAS` names
 * use Karras sigmas.
 *
 * - ComfyUI: `KSAMPLER_NAMES` + `ddim`, `uni_pc`, and the `SCHEDULER_HANDLERS` keys in
 *   comfy/samplers.py (Comfy-Org/ComfyUI).
 * - AUTOMATIC1111 (1.9 and later, Forge alike): modules/sd_samplers_kdiffusion.py,
 *   modules/sd_samplers_timesteps.py, modules/sd_schedulers.py and modules/sd_samplers.py
 *   (`get_sampler_and_scheduler`). The schedule is always sent, because its `Automatic` picks
 *   each sampler's favourite (Karras for `DPM++ 2M` and `DPM2`, exponential for the SDE ones),
 *   which would change the picture without a word. DDIM, PLMS and UniPC step on timesteps and take
 *   no schedule; `Automatic` is sent for them.
 */
import type { Sampler } from '../catalog';

export interface BackendSampler {
  sampler_name: string;
  scheduler: string;
  /** Set when the backend has no such sampler and this is the nearest: why, in a person's words. */
  approximation?: string;
}

interface Row {
  comfyui: BackendSampler;
  a1111: BackendSampler;
}

const pair = (sampler_name: string, scheduler: string, approximation?: string): BackendSampler =>
  approximation === undefined ? { sampler_name, scheduler } : { sampler_name, scheduler, approximation };

const TABLE: Record<Sampler, Row> = {
  DDIM: { comfyui: pair('ddim', 'ddim_uniform'), a1111: pair('DDIM', 'Automatic') },
  DDPM: {
    comfyui: pair('ddpm', 'normal'),
    a1111: pair('Euler a', 'Uniform', "AUTOMATIC1111 has no DDPM sampler; 'Euler a' is the nearest (it too adds fresh noise at every step)"),
  },
  DPM_PLUS_PLUS_2M_KARRAS: { comfyui: pair('dpmpp_2m', 'karras'), a1111: pair('DPM++ 2M', 'Karras') },
  DPM_SINGLE: {
    comfyui: pair('dpmpp_2s_ancestral', 'normal', 'ComfyUI has no non-ancestral single-step DPM++ solver; its ancestral one (dpmpp_2s_ancestral) adds fresh noise at each step, so the image differs more from one seed to another'),
    a1111: pair('DPM++ 2S a', 'Uniform', "AUTOMATIC1111 has no deterministic single-step DPM-Solver++; 'DPM++ 2S a' is the nearest (it adds noise at each step)"),
  },
  DPM_SOLVER_MULTISTEP: { comfyui: pair('dpmpp_2m', 'normal'), a1111: pair('DPM++ 2M', 'Uniform') },
  K_EULER: { comfyui: pair('euler', 'normal'), a1111: pair('Euler', 'Uniform') },
  K_EULER_ANCESTRAL: { comfyui: pair('euler_ancestral', 'normal'), a1111: pair('Euler a', 'Uniform') },
  PNDM: {
    comfyui: pair('ipndm', 'normal', 'ComfyUI has no PNDM sampler; ipndm (improved pseudo-numerical methods, the same family of linear multistep solvers) is the nearest'),
    a1111: pair('PLMS', 'Automatic', "AUTOMATIC1111 has no PNDM sampler; 'PLMS' is its linear multistep part, without PNDM's Runge-Kutta warm-up steps"),
  },
  UNI_PC: { comfyui: pair('uni_pc', 'normal'), a1111: pair('UniPC', 'Automatic') },
  DPM_2: { comfyui: pair('dpm_2', 'normal'), a1111: pair('DPM2', 'Uniform') },
  DPM_2_ANCESTRAL: { comfyui: pair('dpm_2_ancestral', 'normal'), a1111: pair('DPM2 a', 'Uniform') },
  DPM_PLUS_PLUS_SDE_KARRAS: { comfyui: pair('dpmpp_sde', 'karras'), a1111: pair('DPM++ SDE', 'Karras') },
  HEUN: { comfyui: pair('heun', 'normal'), a1111: pair('Heun', 'Uniform') },
  KLMS: { comfyui: pair('lms', 'normal'), a1111: pair('LMS', 'Uniform') },
};

const column = (backend: keyof Row): Record<Sampler, BackendSampler> =>
  Object.fromEntries(Object.entries(TABLE).map(([sampler, row]) => [sampler, row[backend]])) as Record<Sampler, BackendSampler>;

export const COMFY_SAMPLERS = column('comfyui');
export const A1111_SAMPLERS = column('a1111');
