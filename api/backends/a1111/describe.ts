/** AUTOMATIC1111 / Forge as a backend: what it says of itself, for settings, flags and docs (index.ts is the code). */
import { describeBackend } from '../describe';

export const a1111Description = describeBackend({
  kind: 'a1111',
  label: 'AUTOMATIC1111 / Forge',
  summary: "AUTOMATIC1111's web UI, Forge or SD.Next, through their /sdapi/v1 API",
  defaultBaseUrl: 'http://127.0.0.1:7860',
  credential: {
    label: 'User:password (optional)',
    help: 'Only when it was started with --api-auth user:password. Sent as HTTP basic authentication to this base URL only.',
    required: false,
  },
  names: [
    { key: 'checkpoint', label: 'Checkpoint', perEngine: true, need: 'recommended', note: 'else the loaded model runs, said before the run', suggestFrom: ['checkpoints'] },
    { key: 'refiner', label: 'Refiner checkpoint', hint: "For SDXL's Use refiner.", need: 'optional', note: 'needed for `use_refiner`', suggestFrom: ['checkpoints'] },
    { key: 'assets', label: 'Asset files', need: 'optional', note: 'a name not listed is sent without `svc:`', suggestFrom: ['controlnets', 'loras', 'embeddings', 'vaes'] },
  ],
  browser: {
    direct: true,
    corsFlag: (origin) => `--cors-allow-origins=${origin}`,
    allowOrigin: (origin) => `Start it with \`--api\`, and for this browser \`--cors-allow-origins=${origin}\`.`,
  },
  pool: true,
});
