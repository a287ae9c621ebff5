/** fal as a backend: what it says of itself, for settings, flags and docs (index.ts is the code). */
import { describeBackend } from '../describe';
import { DEFAULT_MODELS } from './models';

export const FAL_LABEL = 'fal';

export const falDescription = describeBackend({
  kind: 'fal',
  label: FAL_LABEL,
  summary: "fal's hosted models through its queue API (SDXL, Stable Diffusion 1.5, SDXL ControlNet, FLUX.1 [dev] and [schnell], Stable Diffusion 3.5), paid per image or megapixel",
  defaultBaseUrl: 'https://queue.fal.run',
  credential: {
    label: 'API key',
    help: 'A fal key (key id:secret, from fal.ai/dashboard/keys), sent as Authorization: Key to this base URL only.',
    required: true,
  },
  names: [
    {
      key: 'model',
      label: 'Model',
      hint: 'A fal model id, e.g. fal-ai/flux/dev; empty: fal-ai/fast-sdxl (SDXL), fal-ai/lora (SD 1.5), fal-ai/fast-sdxl-controlnet-canny (ControlNet).',
      perEngine: true,
      need: 'optional',
      defaults: DEFAULT_MODELS,
      suggestFrom: ['models'],
    },
    {
      key: 'assets',
      label: 'Assets',
      hint: 'LoRA and checkpoint names to what fal loads: a LoRA to its weights\' https URL, a checkpoint to a Hugging Face repo (fal-ai/lora).',
      note: "a LoRA is sent only when mapped to its weights' https URL",
      need: 'optional',
    },
  ],
  browser: {
    direct: false,
    why: 'fal asks that its key never be used from a browser (its client warns when it is, and recommends a server-side proxy): Atelier sends fal requests through its own server, which holds the key.',
  },
  pool: false,
});
