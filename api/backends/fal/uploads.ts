/**
 * Input images for fal: a `data:` URI made from the request's base64 as it is (nothing decoded),
 * which fal's model pages accept for any file field; an image over `uploadOverBytes` goes through
 * fal's storage instead, as those pages advise for large files (the data URI "can impact the
 * request performance"): `POST {rest}/storage/upload/initiate?storage_type=fal-cdn-v3` with
 * `{content_type, file_name}` answers `{upload_url, file_url}`, the bytes are `PUT` to
 * `upload_url` (a signed URL: no key is sent there) and `file_url` is the input (fal-js
 * src/storage.ts). Only then is the base64 decoded, once.
 */
import { z } from 'zod';
import type { FetchLike, Http } from '../../http';
import { DEFAULT_TIMEOUTS } from '../../http';
import { openExchange } from '../../exchange';
import { base64ToBytes } from '../../image-data';
import { base64ByteLength, base64Format, toDataUri } from '../hosted/data-uri';
import { FORMAT_MIME } from '../openai/image-info';
import { explainFalError } from './errors';
import type { FalImage } from './translate';

/** Larger input images are uploaded: 1 MB keeps a request's JSON body small. */
export const UPLOAD_OVER_BYTES = 1024 * 1024;

const InitiatedSchema = z.looseObject({ upload_url: z.string().url(), file_url: z.string().min(1) });

/** Counted by the benchmark: the one decode an uploaded image goes through. */
export const falCodec = { bytes: (b64: string): Uint8Array<ArrayBuffer> => base64ToBytes(b64) };

export interface PrepareOptions {
  rest: Http;
  uploadOverBytes: number;
  signal?: AbortSignal;
  fetch?: FetchLike;
}

async function upload(image: FalImage, options: PrepareOptions): Promise<string> {
  const format = base64Format(image.b64);
  const contentType = format === undefined ? 'application/octet-stream' : FORMAT_MIME[format];
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const { upload_url, file_url } = await options.rest.requestJson({
    method: 'POST', path: '/storage/upload/initiate?storage_type=fal-cdn-v3', accept: 'application/json',
    body: { content_type: contentType, file_name: `${image.source}.${format === 'jpeg' ? 'jpg' : format ?? 'bin'}` },
  }, InitiatedSchema, { ...signal, mapError: (error) => explainFalError(error, 'storage', options.rest.secrets) });
  const bytes = falCodec.bytes(image.b64);
  const exchange = await openExchange({
    url: upload_url, authorization: undefined, secrets: options.rest.secrets,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)), timeouts: DEFAULT_TIMEOUTS, maxRetryAfterMs: 0,
  }, { method: 'PUT', path: '', accept: '*/*', body: new Blob([bytes], { type: contentType }) }, 1, options.signal);
  exchange.close();
  return file_url;
}

/** Each image's fal field and what it carries: a data URI, or the URL of the uploaded file. */
export async function prepareFalImages(images: readonly FalImage[], options: PrepareOptions): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const image of images) {
    fields[image.field] = base64ByteLength(image.b64) > options.uploadOverBytes ? await upload(image, options) : toDataUri(image.b64);
  }
  return fields;
}
