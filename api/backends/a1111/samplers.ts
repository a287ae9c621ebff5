/**
 * The service's samplers as AUTOMATIC1111 names them: a sampler (`sampler_name`) and a noise
 * schedule (`scheduler`, AUTOMATIC1111 1.9 and later, Forge alike).
 *
 * The service's names are diffusers' schedulers, whose default schedule is their own even spacing:
 * that is AUTOMATIC1111's `Uniform` (the model's own sigmas). The schedule is always sent, because
 * AUTOMATIC1111's `Automatic` picks each sampler's favourite (Karras for `DPM++ 2M` and `DPM2`,
 * exponential for the SDE ones), which would change the picture without a word. DDIM, PLMS and
 * UniPC step on timesteps and take no schedule; `Automatic` is sent for them.
 *
 * Source: modules/sd_samplers_kdiffusion.py, modules/sd_samplers_timesteps.py,
 * modules/sd_schedulers.py and modules/sd_samplers.py (`get_sampler_and_scheduler`).
 */
import type { Sampler } from '../../catalog';

export interface A1111Sampler {
  sampler_name: string;
  scheduler: string;
  /** Set when AUTOMATIC1111 has no such sampler and this is the nearest: why, in a person's words. */
  approximation?: string;
}

export const A1111_SAMPLERS: Record<Sampler, A1111Sampler> = {
  DDIM: { sampler_name: 'DDIM', scheduler: 'Automatic' },
  DDPM: {
    sampler_name: 'Euler a', scheduler: 'Uniform',
    approximation: "AUTOMATIC1111 has no DDPM sampler; 'Euler a' is the nearest (it too adds fresh noise at every step)",
  },
  DPM_PLUS_PLUS_2M_KARRAS: { sampler_name: 'DPM++ 2M', scheduler: 'Karras' },
  DPM_SINGLE: {
    sampler_name: 'DPM++ 2S a', scheduler: 'Uniform',
    approximation: "AUTOMATIC1111 has no deterministic single-step DPM-Solver++; 'DPM++ 2S a' is the nearest (it adds noise at each step)",
  },
  DPM_SOLVER_MULTISTEP: { sampler_name: 'DPM++ 2M', scheduler: 'Uniform' },
  K_EULER: { sampler_name: 'Euler', scheduler: 'Uniform' },
  K_EULER_ANCESTRAL: { sampler_name: 'Euler a', scheduler: 'Uniform' },
  PNDM: {
    sampler_name: 'PLMS', scheduler: 'Automatic',
    approximation: "AUTOMATIC1111 has no PNDM sampler; 'PLMS' is its linear multistep part, without PNDM's Runge-Kutta warm-up steps",
  },
  UNI_PC: { sampler_name: 'UniPC', scheduler: 'Automatic' },
  DPM_2: { sampler_name: 'DPM2', scheduler: 'Uniform' },
  DPM_2_ANCESTRAL: { sampler_name: 'DPM2 a', scheduler: 'Uniform' },
  DPM_PLUS_PLUS_SDE_KARRAS: { sampler_name: 'DPM++ SDE', scheduler: 'Karras' },
  HEUN: { sampler_name: 'Heun', scheduler: 'Uniform' },
  KLMS: { sampler_name: 'LMS', scheduler: 'Uniform' },
};
