/**
 * The service's samplers as ComfyUI's KSampler `sampler_name` + `scheduler` pairs. ComfyUI's names
 * are `KSAMPLER_NAMES` + `ddim`, `uni_pc` and its `SCHEDULER_HANDLERS` keys in comfy/samplers.py
 * (Comfy-Org/ComfyUI). The service's names are diffusers' schedulers: the ones without "KARRAS"
 * use the model's own noise schedule, which is ComfyUI's `normal` scheduler.
 */
import type { Sampler } from '../../catalog';

export interface ComfySampler {
  sampler_name: string;
  scheduler: string;
  /** Why this pair only approximates the service's sampler; absent when the meaning is kept. */
  approximation?: string;
}

export const COMFY_SAMPLERS: Record<Sampler, ComfySampler> = {
  DDIM: { sampler_name: 'ddim', scheduler: 'ddim_uniform' },
  DDPM: { sampler_name: 'ddpm', scheduler: 'normal' },
  DPM_PLUS_PLUS_2M_KARRAS: { sampler_name: 'dpmpp_2m', scheduler: 'karras' },
  DPM_SINGLE: {
    sampler_name: 'dpmpp_2s_ancestral', scheduler: 'normal',
    approximation: 'ComfyUI has no non-ancestral single-step DPM++ solver; its ancestral one (dpmpp_2s_ancestral) adds fresh noise at each step, so the image differs more from one seed to another',
  },
  DPM_SOLVER_MULTISTEP: { sampler_name: 'dpmpp_2m', scheduler: 'normal' },
  K_EULER: { sampler_name: 'euler', scheduler: 'normal' },
  K_EULER_ANCESTRAL: { sampler_name: 'euler_ancestral', scheduler: 'normal' },
  PNDM: {
    sampler_name: 'ipndm', scheduler: 'normal',
    approximation: 'ComfyUI has no PNDM sampler; ipndm (improved pseudo-numerical methods, the same family of linear multistep solvers) is the nearest',
  },
  UNI_PC: { sampler_name: 'uni_pc', scheduler: 'normal' },
  DPM_2: { sampler_name: 'dpm_2', scheduler: 'normal' },
  DPM_2_ANCESTRAL: { sampler_name: 'dpm_2_ancestral', scheduler: 'normal' },
  DPM_PLUS_PLUS_SDE_KARRAS: { sampler_name: 'dpmpp_sde', scheduler: 'karras' },
  HEUN: { sampler_name: 'heun', scheduler: 'normal' },
  KLMS: { sampler_name: 'lms', scheduler: 'normal' },
};
