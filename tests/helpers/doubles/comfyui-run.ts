/**
 * How the ComfyUI double runs one queued prompt, in the order of execution.py's PromptExecutor
 * and main.py's prompt_worker: `execution_start`, `execution_cached`, then per node `executing`
 * (and `progress` per sampler step, `executed` for an output node), then `execution_success`,
 * `execution_error` or `execution_interrupted`; the history entry is written, and last comes
 * `executing` with node null. Images are real PNGs (sharp) whose colour comes from the seed.
 */
import sharp from 'sharp';
import type { NodeClass } from './comfyui-nodes';

export interface QueueItem {
  number: number;
  promptId: string;
  prompt: Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  extraData: Record<string, unknown>;
  outputs: string[];
}

export interface HistoryEntry {
  prompt: unknown[];
  /** Per output node: a save node's `images`, PreviewAny's `text` (its `ui`). */
  outputs: Record<string, { images?: { filename: string; subfolder: string; type: string }[]; text?: string[] }>;
  status: { status_str: 'success' | 'error'; completed: boolean; messages: [string, unknown][] };
  meta: Record<string, unknown>;
}

/** A failure a test asks for: the next run fails in the first node of this class. */
export interface PlannedFailure {
  classType: string;
  kind: 'oom' | 'exception';
}

export interface RunHost {
  classes: Record<string, NodeClass>;
  inputs: Map<string, Uint8Array>;
  outputs: Map<string, Uint8Array>;
  send(event: string, data: Record<string, unknown>, sid: string | undefined): void;
  /** Resolves when the run may take its next sampler step (tests hold runs here). */
  beforeStep(promptId: string, node: string, step: number): Promise<void>;
  interrupted(): boolean;
  /** The planned failure for a node of this class, taken so it happens once. */
  takeFailure(classType: string): PlannedFailure | undefined;
}

interface Value { width?: number; height?: number; batch?: number; seed?: number; steps?: number; text?: string }

class Interrupted extends Error {}

function isLink(value: unknown): value is [string, number] {
  return Array.isArray(value) && value.length === 2;
}

/** Nodes in an order that runs every input before its consumer, from the output nodes back. */
function order(item: QueueItem): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const value of Object.values(item.prompt[id]?.inputs ?? {})) if (isLink(value)) visit(value[0]);
    out.push(id);
  };
  item.outputs.forEach(visit);
  return out;
}

let fileCounter = 1;

export async function runPrompt(item: QueueItem, host: RunHost): Promise<HistoryEntry> {
  const sid = typeof item.extraData.client_id === 'string' ? item.extraData.client_id : undefined;
  const messages: [string, unknown][] = [];
  const add = (event: string, data: Record<string, unknown>, broadcast = false) => {
    const stamped = { ...data, timestamp: Date.now() };
    messages.push([event, stamped]);
    if (sid !== undefined || broadcast) host.send(event, stamped, sid);
  };
  const values = new Map<string, Value>();
  const uiOutputs: HistoryEntry['outputs'] = {};
  const executed: string[] = [];
  const input = (id: string, name: string): Value => {
    const v = item.prompt[id]?.inputs[name];
    return isLink(v) ? values.get(v[0]) ?? {} : {};
  };
  let success = true;

  add('execution_start', { prompt_id: item.promptId });
  add('execution_cached', { nodes: [], prompt_id: item.promptId });
  for (const id of order(item)) {
    const node = item.prompt[id];
    if (node === undefined) continue;
    const inputs = node.inputs;
    try {
      if (host.interrupted()) throw new Interrupted();
      host.send('executing', { node: id, display_node: id, prompt_id: item.promptId }, sid);
      const failure = host.takeFailure(node.class_type);
      if (failure !== undefined) {
        throw Object.assign(new Error(failure.kind === 'oom'
          ? 'CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 8.00 GiB of which 1.12 GiB is free.\nThis error means you ran out of memory on your GPU.\n\nTIPS: If the workflow worked before you might have accidentally set the batch_size to a large number.'
          : 'mat1 and mat2 shapes cannot be multiplied (154x2048 and 768x320)\n'), { pyType: failure.kind === 'oom' ? 'torch.OutOfMemoryError' : 'RuntimeError' });
      }
      values.set(id, await execute(id, node.class_type, inputs, input, item, host, uiOutputs));
      executed.push(id);
      if (uiOutputs[id] !== undefined) host.send('executed', { node: id, display_node: id, output: uiOutputs[id], prompt_id: item.promptId }, sid);
    } catch (error) {
      success = false;
      if (error instanceof Interrupted) {
        add('execution_interrupted', { prompt_id: item.promptId, node_id: id, node_type: node.class_type, executed }, true);
      } else {
        const e = error as Error & { pyType?: string };
        add('execution_error', {
          prompt_id: item.promptId, node_id: id, node_type: node.class_type, executed, exception_message: e.message,
          exception_type: e.pyType ?? 'Exception', traceback: [], current_inputs: {}, current_outputs: [],
        });
      }
      break;
    }
  }
  if (success) add('execution_success', { prompt_id: item.promptId });
  return {
    prompt: [item.number, item.promptId, item.prompt, item.extraData, item.outputs],
    outputs: uiOutputs,
    status: { status_str: success ? 'success' : 'error', completed: success, messages },
    meta: Object.fromEntries(Object.keys(uiOutputs).map((id) => [id, { node_id: id, display_node: id, parent_node: null, real_node_id: id }])),
  };
}

async function execute(
  id: string, classType: string, inputs: Record<string, unknown>, input: (id: string, name: string) => Value,
  item: QueueItem, host: RunHost, ui: HistoryEntry['outputs'],
): Promise<Value> {
  switch (classType) {
    case 'LoadImage': {
      const bytes = host.inputs.get(String(inputs.image));
      if (bytes === undefined) throw Object.assign(new Error(`[Errno 2] No such file or directory: '${String(inputs.image)}'`), { pyType: 'FileNotFoundError' });
      const meta = await sharp(bytes).metadata();
      return { width: meta.width, height: meta.height, batch: 1 };
    }
    case 'ImageScale':
      return { ...input(id, 'image'), width: Number(inputs.width), height: Number(inputs.height) };
    case 'EmptyLatentImage':
    case 'EmptySD3LatentImage':
      return { width: Number(inputs.width), height: Number(inputs.height), batch: Number(inputs.batch_size) };
    case 'VAEEncode':
      return { ...input(id, 'pixels'), batch: 1 };
    case 'RepeatLatentBatch': {
      const latent = input(id, 'samples');
      return { ...latent, batch: (latent.batch ?? 1) * Number(inputs.amount) };
    }
    case 'SetLatentNoiseMask':
      return input(id, 'samples');
    case 'KSampler':
    case 'KSamplerAdvanced': {
      const steps = Number(inputs.steps);
      const advanced = classType === 'KSamplerAdvanced';
      const total = advanced ? Math.min(Number(inputs.end_at_step), steps) - Number(inputs.start_at_step) : steps;
      for (let step = 1; step <= total; step++) {
        await host.beforeStep(item.promptId, id, step);
        if (host.interrupted()) throw new Interrupted();
        host.send('progress', { value: step, max: total, prompt_id: item.promptId, node: id }, item.extraData.client_id as string | undefined);
      }
      return { ...input(id, 'latent_image'), seed: Number(advanced ? inputs.noise_seed : inputs.seed) };
    }
    case 'VAEDecode':
      return input(id, 'samples');
    case 'RandomNoise':
      return { seed: Number(inputs.noise_seed) };
    case 'BasicScheduler':
      return { steps: Number(inputs.steps) };
    case 'SamplerCustomAdvanced': {
      // comfy_extras/nodes_custom_sampler.py: the sigmas give the steps, the noise the seed.
      const total = Math.max(0, input(id, 'sigmas').steps ?? 0);
      for (let step = 1; step <= total; step++) {
        await host.beforeStep(item.promptId, id, step);
        if (host.interrupted()) throw new Interrupted();
        host.send('progress', { value: step, max: total, prompt_id: item.promptId, node: id }, item.extraData.client_id as string | undefined);
      }
      return { ...input(id, 'latent_image'), seed: input(id, 'noise').seed ?? 0 };
    }
    case 'UpscaleModelLoader':
      return { steps: /x4/i.test(String(inputs.model_name)) ? 4 : 2 };
    case 'ImageUpscaleWithModel': {
      // The model's scale (RealESRGAN_x2 doubles), kept small here: the double draws every pixel.
      const image = input(id, 'image');
      const scale = input(id, 'upscale_model').steps ?? 2;
      return { ...image, width: (image.width ?? 64) * scale, height: (image.height ?? 64) * scale };
    }
    case 'PrimitiveStringMultiline':
      return { text: String(inputs.value) };
    case 'PreviewAny': {
      // nodes_preview_any.py: a string as it is, anything else as JSON ('None' for nothing).
      const source = input(id, 'source');
      const value = source.text ?? (Object.keys(source).length === 0 ? 'None' : JSON.stringify(source, null, 4));
      ui[id] = { text: [value] };
      return { text: value };
    }
    case 'SaveImage':
    case 'PreviewImage': {
      const image = input(id, 'images');
      const type = classType === 'SaveImage' ? 'output' : 'temp';
      const prefix = String(inputs.filename_prefix ?? 'ComfyUI');
      const images = [];
      for (let i = 0; i < (image.batch ?? 1); i++) {
        const seed = (image.seed ?? 0) + i * 7919;
        const png = await sharp({ create: { width: image.width ?? 64, height: image.height ?? 64, channels: 3, background: { r: seed % 256, g: Math.floor(seed / 256) % 256, b: Math.floor(seed / 65536) % 256 } } }).png().toBuffer();
        const filename = `${prefix}_${String(fileCounter++).padStart(5, '0')}_.png`;
        host.outputs.set(`${type}/${filename}`, new Uint8Array(png));
        images.push({ filename, subfolder: '', type });
      }
      ui[id] = { images };
      return {};
    }
    default:
      return Object.values(inputs).find(isLink) === undefined ? {} : input(id, Object.keys(inputs).find((k) => isLink(inputs[k])) ?? '');
  }
}
