/**
 * The manifest an image carries: which node made it, with which engine, request parameters and
 * seed, in which Atelier. Images inside requests are described (type, byte size, sha256), never
 * carried. It never holds a token or an endpoint: the builder's output goes through
 * `scrubManifest`, which removes credential-named and endpoint-named fields, credential-shaped
 * text (credentials.ts's detector) and every URL.
 *
 * The types here are structural so that the executor's `node-request` calls and `node-done`
 * images (workers/events.ts, nodes/types.ts) fit them as they are, without workflow/ importing
 * from the layers above it.
 */
import { z } from 'zod';
import { findCredentialLike, isCredentialKey, isEndpointKey } from '../credentials';
import { REMOVED_MARK, removeCredentialLike } from '../export-scan';
import { sha256Hex } from '../../api/image-data';
import { withoutDistinctiveSecrets } from '../../api/redact';
import { decodeBase64 } from './digest';
import { keyedRecord } from '../keys';

export const IMAGE_MANIFEST_FORMAT = 'atelier.image-manifest';
export const IMAGE_MANIFEST_VERSION = 1;

/** An image in a request, described instead of carried. */
export interface ImageRef {
  /** Its mime type from its first bytes, or 'unknown'. */
  image: string;
  bytes: number;
  /** Of the image's bytes; absent when the request reached the builder with the image already cut out. */
  sha256?: string;
}

/** The image backend that took a request, when it was not the service's API. */
export interface ManifestBackend {
  kind: string;
  label: string;
  /** Fields it approximated or left out, in a person's words. */
  notes: readonly { field: string; treatment: string; message: string }[];
  /** The request as the backend was sent it (its own format), images described. */
  translated: unknown;
}

/** One API request the node sent (the `call` of a `node-request` event fits). */
export interface ManifestCall {
  api: 'image' | 'chat';
  operation: 'generate' | 'complete' | 'stream' | 'pipeline';
  engine?: string;
  request: unknown;
  backend?: ManifestBackend;
}

export interface ImageManifest {
  format: typeof IMAGE_MANIFEST_FORMAT;
  version: typeof IMAGE_MANIFEST_VERSION;
  atelier: { version: string };
  /** When the manifest was made (ISO 8601). */
  created: string;
  node: { id: string; type: string; typeVersion?: number; title?: string };
  /** The image engine of the request that made the image (`sdxl`, `sd`, `controlnet-sdxl`). */
  engine?: string;
  /** The seed that made this image: the one the service used, else the one requested. */
  seed?: number;
  /** The image itself as it left the node (before anything was embedded in it). */
  image: { mime: string; bytes: number; width?: number; height?: number };
  /** The server of a pool that made it, by its label (never its address). */
  madeOn?: string;
  /** The node's requests, in order, images described by ImageRef. */
  requests: ManifestCall[];
}

const name = z.string().max(200);
const count = z.number().int().nonnegative();

/** The manifest as read back from an image made by anyone: bounded, extra fields dropped. */
export const ImageManifestSchema = z.object({
  format: z.literal(IMAGE_MANIFEST_FORMAT),
  version: z.literal(IMAGE_MANIFEST_VERSION),
  atelier: z.object({ version: name }),
  created: name,
  node: z.object({ id: name, type: name, typeVersion: count.optional(), title: name.optional() }),
  engine: name.optional(),
  seed: z.number().int().optional(),
  image: z.object({ mime: name, bytes: count, width: count.optional(), height: count.optional() }),
  madeOn: name.optional(),
  requests: z.array(z.object({
    api: z.enum(['image', 'chat']),
    operation: z.enum(['generate', 'complete', 'stream', 'pipeline']),
    engine: name.optional(),
    request: z.unknown(),
    backend: z.object({
      kind: name,
      label: name,
      notes: z.array(z.object({ field: name, treatment: name, message: z.string().max(2000) })).max(200),
      translated: z.unknown(),
    }).optional(),
  })).max(1000),
});

/**
 * An extracted manifest (extractWorkflow's `manifest`) as an ImageManifest, or undefined when it
 * is not one this build reads (another format or version, or damaged).
 */
export function readImageManifest(value: unknown): ImageManifest | undefined {
  const parsed = ImageManifestSchema.safeParse(value);
  return parsed.success ? (parsed.data as ImageManifest) : undefined;
}

/** An image as nodes pass it (nodes/types.ts ImageData fits). */
export interface ManifestImage {
  b64: string;
  mime: string;
  seed?: number;
  width?: number;
  height?: number;
  madeOn?: string;
}

export interface ManifestSource {
  atelierVersion: string;
  node: { id: string; type: string; title?: string };
  /** The node type's version (its definition's `version`). */
  typeVersion?: number;
  /** The node's requests: the `call` of each of its `node-request` events, or the full requests. */
  calls: readonly ManifestCall[];
  /** The image the manifest goes with, as the node output it. */
  image: ManifestImage;
  created?: Date;
  /**
   * The user's tokens and endpoint URLs, removed wherever they appear when distinctive (api/redact.ts).
   * The scrub finds credential-shaped text and URLs anyway; this catches a token of an unusual shape.
   */
  secrets?: readonly string[];
}

const SIGNATURES: readonly (readonly [string, readonly number[]])[] = [
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/png', [0x89, 0x50, 0x4e, 0x47]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]],
];

function sniff(bytes: Uint8Array): string | undefined {
  return SIGNATURES.find(([, magic]) => magic.every((b, i) => bytes[i] === b))?.[0];
}

/** What the executor leaves of an image in a `node-request` event (workers/node-api.ts). */
const ELIDED = /^<base64, (\d{1,12}) characters>$/;
const DATA_URL = /^data:image\/[\w.+-]+;base64,/;
/** A shorter string cannot be an image worth describing. */
const MIN_IMAGE_CHARS = 64;

/** The string as an ImageRef when it is an image (base64, a data URL, or the executor's elision). */
export function describeImageText(text: string): ImageRef | undefined {
  const elided = ELIDED.exec(text);
  if (elided) return { image: 'unknown', bytes: Math.floor((Number(elided[1]) * 3) / 4) };
  if (text.length < MIN_IMAGE_CHARS) return undefined;
  const bytes = decodeBase64(text.replace(DATA_URL, ''));
  const mime = bytes && sniff(bytes);
  return bytes && mime ? { image: mime, bytes: bytes.length, sha256: sha256Hex(bytes) } : undefined;
}

function describeImages(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return describeImageText(value) ?? value;
  if (typeof value !== 'object' || value === null || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => describeImages(item, depth + 1));
  // Request fields hold names from the file (a LoRA called 'toString'): keys without a prototype.
  const out = keyedRecord<unknown>();
  for (const [k, v] of Object.entries(value)) out[k] = describeImages(v, depth + 1);
  return out;
}

const URL_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;
const URL_KEY = new RegExp(URL_TEXT.source, 'i');
const URL_MARK = '[url removed]';

function scrubText(text: string, secrets: readonly string[]): string {
  // URLs first, so an endpoint among the secrets goes with the rest of its URL.
  let out = text.replace(URL_TEXT, URL_MARK);
  // Only a distinctive secret: `text` as a token must not take the word out of every prompt.
  out = withoutDistinctiveSecrets(out, secrets, REMOVED_MARK);
  return removeCredentialLike(out);
}

/**
 * A copy of a manifest (or any JSON value) with no credential or endpoint left: fields named like
 * either are dropped, keys shaped like a credential too, and text loses credential-shaped
 * pieces, URLs and the given `secrets`.
 */
export function scrubManifest<T>(value: T, secrets: readonly string[] = []): T {
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return scrubText(v, secrets);
    if (typeof v !== 'object' || v === null || depth > 64) return typeof v === 'object' && v !== null ? null : v;
    if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1));
    const out = keyedRecord<unknown>();
    for (const [k, child] of Object.entries(v)) {
      if (isCredentialKey(k) || isEndpointKey(k) || findCredentialLike(k) || URL_KEY.test(k)) continue;
      out[k] = walk(child, depth + 1);
    }
    return out;
  };
  return walk(value, 0) as T;
}

/** The manifest for one image a node made, from what the executor reported about the node. */
export function buildImageManifest(source: ManifestSource): ImageManifest {
  const { node, image, calls } = source;
  const requests = calls.map((call): ManifestCall => ({
    api: call.api,
    operation: call.operation,
    ...(call.engine === undefined ? {} : { engine: call.engine }),
    request: describeImages(call.request),
    ...(call.backend === undefined ? {} : { backend: { ...call.backend, translated: describeImages(call.backend.translated) } }),
  }));
  const engine = [...calls].reverse().find((c) => c.api === 'image' && c.engine !== undefined)?.engine;
  const manifest: ImageManifest = {
    format: IMAGE_MANIFEST_FORMAT,
    version: IMAGE_MANIFEST_VERSION,
    atelier: { version: source.atelierVersion },
    created: (source.created ?? new Date()).toISOString(),
    node: {
      id: node.id,
      type: node.type,
      ...(source.typeVersion === undefined ? {} : { typeVersion: source.typeVersion }),
      ...(node.title === undefined ? {} : { title: node.title }),
    },
    ...(engine === undefined ? {} : { engine }),
    image: {
      mime: image.mime,
      bytes: base64Bytes(image.b64),
      ...(image.width === undefined ? {} : { width: image.width }),
      ...(image.height === undefined ? {} : { height: image.height }),
    },
    ...(image.madeOn === undefined ? {} : { madeOn: image.madeOn }),
    requests,
  };
  const seed = image.seed ?? requestedSeed(calls);
  if (seed !== undefined) manifest.seed = seed;
  return scrubManifest(manifest, source.secrets);
}

function base64Bytes(b64: string): number {
  const start = DATA_URL.exec(b64)?.[0].length ?? 0;
  let end = b64.length;
  while (end > start && b64.charCodeAt(end - 1) === 0x3d) end--;
  return Math.floor(((end - start) * 3) / 4);
}

/** The seed of the last image request, when it named one. */
function requestedSeed(calls: readonly ManifestCall[]): number | undefined {
  const last = [...calls].reverse().find((c) => c.api === 'image');
  const request = last?.request;
  const seed = typeof request === 'object' && request !== null ? (request as { seed?: unknown }).seed : undefined;
  return typeof seed === 'number' && Number.isSafeInteger(seed) ? seed : undefined;
}
