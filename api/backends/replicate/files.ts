/**
 * Input images for Replicate: a `data:` URI made from the request's base64 as it is (nothing
 * decoded) for a file of 256 KB or less, as Replicate's API reference advises ("Use a data URL
 * when you have a small file <= 256kb"; the `input` description of the create-prediction
 * request); a larger one is uploaded once with `POST /v1/files` (multipart `content` and
 * `metadata`, as replicate-javascript lib/files.js sends it) and its `urls.get` is the input.
 */
import { z } from 'zod';
import type { Http } from '../../http';
import { base64ToBytes } from '../../image-data';
import { base64ByteLength, base64Format, toDataUri } from '../hosted/data-uri';
import { FORMAT_MIME } from '../openai/image-info';
import { explainReplicateError } from './errors';
import type { ReplicateImage } from './translate';

/** Replicate's limit for an input sent inline as a data URI. */
export const DATA_URI_MAX_BYTES = 256 * 1024;

const FileSchema = z.looseObject({ id: z.string(), urls: z.looseObject({ get: z.string().min(1) }) });

/** Counted by the benchmark: the one decode an uploaded image goes through. */
export const replicateCodec = { bytes: (b64: string): Uint8Array<ArrayBuffer> => base64ToBytes(b64) };

async function upload(http: Http, image: ReplicateImage, signal: AbortSignal | undefined): Promise<string> {
  const format = base64Format(image.b64);
  const type = format === undefined ? 'application/octet-stream' : FORMAT_MIME[format];
  const form = new FormData();
  form.append('content', new Blob([replicateCodec.bytes(image.b64)], { type }), `${image.source}.${format === 'jpeg' ? 'jpg' : format ?? 'bin'}`);
  form.append('metadata', new Blob([JSON.stringify({ source: image.source })], { type: 'application/json' }));
  const file = await http.requestJson({ method: 'POST', path: '/v1/files', body: form, accept: 'application/json' }, FileSchema, {
    ...(signal === undefined ? {} : { signal }),
    mapError: (error) => explainReplicateError(error, 'files', http.secrets),
  });
  return file.urls.get;
}

/** Each image's input field and what it carries: a data URI, or the URL of the uploaded file. */
export async function prepareReplicateImages(http: Http, images: readonly ReplicateImage[], signal?: AbortSignal): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const image of images) {
    fields[image.field] = base64ByteLength(image.b64) <= DATA_URI_MAX_BYTES ? toDataUri(image.b64) : await upload(http, image, signal);
  }
  return fields;
}
