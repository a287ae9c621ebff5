/**
 * What AUTOMATIC1111 answers, as far as this backend reads it. Other fields pass unchecked, so a
 * newer server (or Forge, which adds some) still fits.
 *
 * Source: modules/api/models.py (the response models), modules/api/api.py (what fills them),
 * extensions-builtin/Lora/scripts/lora_script.py (`/sdapi/v1/loras`) and
 * Mikubill/sd-webui-controlnet scripts/api.py (`/controlnet/model_list`).
 */
import { z } from 'zod';

const nullableString = z.string().nullable().optional();

export const SdModelsSchema = z.array(z.looseObject({
  title: z.string(),
  model_name: z.string(),
  hash: nullableString,
  sha256: nullableString,
  filename: z.string(),
}));
export type SdModel = z.infer<typeof SdModelsSchema>[number];

export const SamplersSchema = z.array(z.looseObject({ name: z.string(), aliases: z.array(z.string()).nullable().optional() }));

export const SchedulersSchema = z.array(z.looseObject({ name: z.string(), label: z.string(), aliases: z.array(z.string()).nullable().optional() }));

export const VaesSchema = z.array(z.looseObject({ model_name: z.string() }));

export const LorasSchema = z.array(z.looseObject({ name: z.string(), alias: nullableString }));

export const EmbeddingsSchema = z.looseObject({
  loaded: z.record(z.string(), z.unknown()),
  skipped: z.record(z.string(), z.unknown()),
});

export const ControlNetModelsSchema = z.looseObject({ model_list: z.array(z.string()) });

export const ProgressSchema = z.looseObject({
  progress: z.number(),
  state: z.looseObject({
    job_count: z.number().optional(),
    sampling_step: z.number().optional(),
    sampling_steps: z.number().optional(),
  }),
});
export type Progress = z.infer<typeof ProgressSchema>;

export const GenerationSchema = z.looseObject({
  images: z.array(z.string()).nullable(),
  info: z.string(),
});

/** The `info` of a generation: a JSON text (modules/processing.py `Processed.js`). */
export const GenerationInfoSchema = z.looseObject({
  all_seeds: z.array(z.number()).optional(),
  index_of_first_image: z.number().optional(),
});
