/** ComfyUI as a backend: what it says of itself, for settings, flags and docs (index.ts is the code). */
import { describeBackend } from '../describe';

export const comfyDescription = describeBackend({
  kind: 'comfyui',
  label: 'ComfyUI',
  summary: 'ComfyUI, on a prompt graph of its core nodes only (no custom nodes needed)',
  defaultBaseUrl: 'http://127.0.0.1:8188',
  credential: {
    label: 'Proxy token (optional)',
    help: 'ComfyUI has no accounts: set this only for a proxy in front of it. Sent as Authorization: Bearer to this base URL only.',
    required: false,
  },
  names: [
    { key: 'checkpoint', label: 'Checkpoint', perEngine: true, need: 'required', suggestFrom: ['checkpoints'] },
    { key: 'refiner', label: 'Refiner checkpoint', hint: "For SDXL's Use refiner.", need: 'optional', note: 'needed for `use_refiner`', suggestFrom: ['checkpoints'] },
    { key: 'assets', label: 'Asset files', need: 'optional', note: 'a name not listed is sent without `svc:`', suggestFrom: ['controlnets', 'loras', 'embeddings', 'vaes'] },
  ],
  browser: {
    direct: true,
    corsFlag: (origin) => `--enable-cors-header ${origin}`,
    allowOrigin: (origin) => `From this browser, ComfyUI must allow this page: start it with \`--enable-cors-header ${origin}\`, or it answers 403.`,
  },
  pool: true,
  webSocket: true,
});
