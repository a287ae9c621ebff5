/**
 * What the server has: checkpoints, VAEs, LoRAs, embeddings, ControlNet models, samplers and
 * schedules. Samplers and schedules are fixed while it runs and are asked once; the others can
 * change as files are added, so they are asked afresh for each request that names one.
 *
 * Source: modules/api/api.py (`get_sd_models`, `get_sd_vaes`, `get_embeddings`, `get_samplers`,
 * `get_schedulers`), extensions-builtin/Lora/scripts/lora_script.py (`/sdapi/v1/loras`, added
 * beside the API and so outside --api-auth), Mikubill/sd-webui-controlnet scripts/api.py
 * (`/controlnet/model_list`).
 */
import type { z } from 'zod';
import { isApiError } from '../../errors';
import type { Http, RequestOptions } from '../../http';
import {
  ControlNetModelsSchema, EmbeddingsSchema, LorasSchema, SamplersSchema, SchedulersSchema, SdModelsSchema, VaesSchema,
  type SdModel,
} from './schemas';

export interface ServerLists {
  checkpoints(options?: RequestOptions): Promise<SdModel[]>;
  vaes(options?: RequestOptions): Promise<string[]>;
  /** Every name a LoRA answers to in a prompt (file name, alias); undefined when the Lora extension is off. */
  loras(options?: RequestOptions): Promise<{ name: string; alias?: string | null }[] | undefined>;
  embeddings(options?: RequestOptions): Promise<{ loaded: string[]; skipped: string[] }>;
  /** Undefined when the ControlNet extension is not installed (the route is missing). */
  controlnets(options?: RequestOptions): Promise<string[] | undefined>;
  /** Sampler names and their aliases. */
  samplers(options?: RequestOptions): Promise<Set<string>>;
  /** Schedule names and labels; undefined before AUTOMATIC1111 1.9, which had none. */
  schedulers(options?: RequestOptions): Promise<Set<string> | undefined>;
}

/** A GET whose 404 means "this server has no such thing", not a failure. */
async function unlessMissing<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (isApiError(error) && error.status === 404) return undefined;
    throw error;
  }
}

/** A promise asked once and kept, unless it failed (then the next call asks again). */
function once<T>(ask: (options?: RequestOptions) => Promise<T>): (options?: RequestOptions) => Promise<T> {
  let kept: Promise<T> | undefined;
  return (options) => {
    kept ??= ask(options).catch((error: unknown) => {
      kept = undefined;
      throw error;
    });
    return kept;
  };
}

export function createServerLists(http: Http): ServerLists {
  const get = <S extends z.ZodType>(path: string, schema: S, options?: RequestOptions) =>
    http.requestJson({ method: 'GET', path, accept: 'application/json' }, schema, options);
  return {
    checkpoints: (options) => get('/sdapi/v1/sd-models', SdModelsSchema, options),
    vaes: async (options) => (await get('/sdapi/v1/sd-vae', VaesSchema, options)).map((v) => v.model_name),
    loras: (options) => unlessMissing(get('/sdapi/v1/loras', LorasSchema, options)),
    embeddings: async (options) => {
      const { loaded, skipped } = await get('/sdapi/v1/embeddings', EmbeddingsSchema, options);
      return { loaded: Object.keys(loaded), skipped: Object.keys(skipped) };
    },
    controlnets: async (options) => (await unlessMissing(get('/controlnet/model_list', ControlNetModelsSchema, options)))?.model_list,
    samplers: once(async (options) => new Set((await get('/sdapi/v1/samplers', SamplersSchema, options)).flatMap((s) => [s.name, ...(s.aliases ?? [])]))),
    schedulers: once(async (options) => {
      const list = await unlessMissing(get('/sdapi/v1/schedulers', SchedulersSchema, options));
      return list === undefined ? undefined : new Set(list.flatMap((s) => [s.name, s.label, ...(s.aliases ?? [])]));
    }),
  };
}

/**
 * Every name AUTOMATIC1111 finds a checkpoint by in `override_settings.sd_model_checkpoint`, as
 * far as `/sdapi/v1/sd-models` tells them (modules/sd_models.py `CheckpointInfo.ids`): its title
 * (`name [hash]`), its name (path below the models folder), its file name without extension, the
 * name with slashes as underscores, and its hashes.
 */
export function checkpointIds(model: SdModel): string[] {
  const hash = model.hash ?? undefined;
  const name = hash === undefined ? model.title : model.title.replace(` [${hash}]`, '');
  const base = model.filename.split(/[\\/]/).pop() ?? model.filename;
  const forExtra = base.replace(/\.[^.]*$/, '');
  const ids = [model.title, name, model.model_name, forExtra];
  if (hash !== undefined) ids.push(hash, `${forExtra} [${hash}]`);
  if (model.sha256) ids.push(model.sha256);
  return ids;
}

/** A checkpoint's name as a person knows it: the title without its hash. */
export const checkpointLabel = (model: SdModel): string => (model.hash ? model.title.replace(` [${model.hash}]`, '') : model.title);
