/** Replicate as a backend: what it says of itself, for settings, flags and docs (index.ts is the code). */
import { describeBackend } from '../describe';
import { DEFAULT_MODELS } from './models';

export const REPLICATE_LABEL = 'Replicate';

export const replicateDescription = describeBackend({
  kind: 'replicate',
  label: REPLICATE_LABEL,
  summary: "Replicate's predictions API (SDXL with its refiner, Stable Diffusion, SDXL ControlNet, FLUX.1 [dev] and [schnell], Stable Diffusion 3.5), paid per image or per second of GPU time",
  defaultBaseUrl: 'https://api.replicate.com',
  credential: {
    label: 'API token',
    help: 'A Replicate API token (replicate.com/account/api-tokens), sent as Authorization: Bearer to this base URL only.',
    required: true,
  },
  names: [
    {
      key: 'model',
      label: 'Model',
      hint: 'owner/name or owner/name:version, e.g. black-forest-labs/flux-dev; empty: stability-ai/sdxl, stability-ai/stable-diffusion, lucataco/sdxl-controlnet.',
      perEngine: true,
      need: 'optional',
      defaults: DEFAULT_MODELS,
      suggestFrom: ['models'],
    },
  ],
  browser: {
    direct: false,
    why: "Replicate's API does not answer a browser's cross-origin requests, and its token must stay on a server: Atelier sends Replicate requests through its own server, which holds the token.",
  },
  pool: false,
});
