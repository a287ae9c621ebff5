/**
 * What a ComfyUI has, from `GET /object_info/{class}` (each loader's combo list of files) and
 * `GET /embeddings` (server.py). A combo input is `[[names…], {options}]` for classic nodes and
 * `["COMBO", {options: [names…]}]` for nodes written with the newer schema; both are read.
 */
import { z } from 'zod';
import type { CallOptions } from '../../client-types';
import type { BackendNames } from '../types';
import type { Transport } from './transport';

const ObjectInfoSchema = z.record(z.string(), z.looseObject({
  input: z.looseObject({
    required: z.record(z.string(), z.unknown()).optional(),
    optional: z.record(z.string(), z.unknown()).optional(),
  }),
}));

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;

/** The choices of a combo input, as /object_info describes it. */
export function comboChoices(config: unknown): string[] | undefined {
  if (!Array.isArray(config)) return undefined;
  const [first, extra] = config as unknown[];
  const listed = strings(first);
  if (listed !== undefined) return listed;
  if (first === 'COMBO' && typeof extra === 'object' && extra !== null) return strings((extra as { options?: unknown }).options);
  return undefined;
}

/** The names a node class offers for one input, or undefined when ComfyUI has no such class. */
export async function nodeChoices(transport: Transport, classType: string, input: string, options: CallOptions = {}): Promise<string[] | undefined> {
  const info = await transport.getJson(`/object_info/${encodeURIComponent(classType)}`, ObjectInfoSchema, options);
  const inputs = info[classType]?.input;
  return comboChoices(inputs?.required?.[input] ?? inputs?.optional?.[input]);
}

const SOURCES = {
  checkpoints: ['CheckpointLoaderSimple', 'ckpt_name'],
  samplers: ['KSampler', 'sampler_name'],
  loras: ['LoraLoader', 'lora_name'],
  vaes: ['VAELoader', 'vae_name'],
  controlnets: ['ControlNetLoader', 'control_net_name'],
} as const satisfies Partial<Record<keyof BackendNames, readonly [string, string]>>;

/** Every list ComfyUI can give; a list it cannot give is left out, and all failing is an error. */
export async function listComfyNames(transport: Transport, options: CallOptions = {}): Promise<BackendNames> {
  const keys = Object.keys(SOURCES) as (keyof typeof SOURCES)[];
  const lists = await Promise.allSettled([
    ...keys.map((key) => nodeChoices(transport, SOURCES[key][0], SOURCES[key][1], options)),
    transport.getJson('/embeddings', z.array(z.string()), options),
  ]);
  const names: BackendNames = {};
  keys.forEach((key, i) => {
    const result = lists[i];
    if (result?.status === 'fulfilled' && result.value !== undefined) names[key] = result.value;
  });
  const embeddings = lists[keys.length];
  if (embeddings?.status === 'fulfilled') names.embeddings = embeddings.value;
  if (Object.keys(names).length === 0) {
    const failed = lists.find((r) => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  }
  return names;
}
