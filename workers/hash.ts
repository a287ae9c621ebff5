/**
 * Content hashing for the cache, the same in a worker and in Node.
 * Long strings (base64 images, embedded files) are hashed once and stood in for by their digest;
 * image objects remember theirs, so a 4 MB image costs one SHA-256 however often it is keyed.
 */
import type { AnyNodeDefinition, ImageData, Value } from '../nodes/types';
import { sha256HexAsync } from '../api/image-data';
import { LRUCache } from 'lru-cache';
import { createMemo } from './memo';
import { keyedRecord } from '../workflow/keys';

/** Strings longer than this are replaced by their digest before the key is serialised. */
const LONG_STRING = 1024;
/** Bumped when the shape of keys changes, so a persisted cache never serves a stale layout. */
const KEY_FORMAT = 'atelier-cache-1';

/** A text's SHA-256 (the one digest, api/image-data.ts; WebCrypto's where there is one). */
export const sha256Hex = (text: string): Promise<string> => sha256HexAsync(text);

/** Digests of image objects (`{ b64, mime }`), by identity: outputs are shared, never mutated. */
const objectDigests = new WeakMap<object, Promise<string>>();
/**
 * Digests of long strings by content, for strings that are not inside an image object (a
 * loader's embedded file arrives as a fresh copy with every workflow snapshot). Bounded by
 * total length, least recently used out first: a cache holds its keys alive.
 */
const STRING_MEMO_CHARS = 32 * 1024 * 1024;
const stringDigests = new LRUCache<string, Promise<string>>({ maxSize: STRING_MEMO_CHARS, sizeCalculation: (_digest, s) => Math.max(1, s.length) });

function digestString(s: string): Promise<string> {
  let d = stringDigests.get(s);
  if (d === undefined) {
    d = sha256Hex(s);
    stringDigests.set(s, d);
  }
  return d;
}

function digestImage(image: { b64: string }): Promise<string> {
  let d = objectDigests.get(image);
  if (d === undefined) {
    d = digestString(image.b64);
    objectDigests.set(image, d);
  }
  return d;
}

/**
 * Whether `withDigests` must rewrite `value`: it holds a string to replace, or an array with a
 * hole (the copy has `undefined` there, which serialises as null where a hole gives nothing).
 */
function needsRewrite(value: unknown): boolean {
  if (typeof value === 'string') return value.length > LONG_STRING;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || needsRewrite(value[i])) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) if (needsRewrite(record[key])) return true;
  return false;
}

/**
 * A copy of `value` in which every long string is replaced by `{ sha256 }`, ready for
 * canonical serialisation; `value` itself when there is nothing to replace. Only plain data is
 * expected (parameters, values on wires).
 */
export function withDigests(value: unknown): Promise<unknown> {
  // Nothing to replace (parameters, text and numbers on wires): it serialises as it is.
  return needsRewrite(value) ? rewrite(value) : Promise.resolve(value);
}

/** Whether `record[key]` is an image's base64, digested once per image object. */
function isImageB64(key: string, v: unknown): v is string {
  return key === 'b64' && typeof v === 'string' && v.length > LONG_STRING;
}

/** The digests `rewrite` puts in, started in the order it meets them. */
function startDigests(value: unknown, digests: Promise<string>[]): void {
  if (typeof value === 'string') {
    if (value.length > LONG_STRING) digests.push(digestString(value));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (i in value) startDigests(value[i], digests);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (isImageB64(key, v)) digests.push(digestImage(record as { b64: string }));
    else startDigests(v, digests);
  }
}

/** One wait for all the digests, then the copy, in the same order as `startDigests`. */
async function rewrite(value: unknown): Promise<unknown> {
  const started: Promise<string>[] = [];
  startDigests(value, started);
  const digests = await Promise.all(started);
  let next = 0;
  const copy = (v: unknown): unknown => {
    if (typeof v === 'string') return v.length > LONG_STRING ? { sha256: digests[next++] } : v;
    if (typeof v !== 'object' || v === null) return v;
    // Dense, as Promise.all over a mapped array made it: a hole becomes undefined.
    if (Array.isArray(v)) return Array.from(v as unknown[], (item) => copy(item));
    const record = v as Record<string, unknown>;
    // Keys are port and parameter names from the file: an own '__proto__' stays a key of the copy.
    const out = keyedRecord<unknown>();
    for (const key of Object.keys(record)) {
      const item = record[key];
      out[key] = isImageB64(key, item) ? { sha256: digests[next++] } : copy(item);
    }
    return out;
  };
  return copy(value);
}

/**
 * JSON with object keys sorted at every level and `undefined` members left out, so equal data
 * always gives equal text whatever order its keys were written in.
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  // Written out by hand: a key is made per node on every run and every estimate.
  let out = '{';
  for (const key of sortedKeys(record)) {
    const v = record[key];
    if (v === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(v)}`;
  }
  return `${out}}`;
}

/**
 * The object's own keys in code-unit order, as `sort()` gives them. Insertion sort for the few
 * keys of a parameter object is several times faster than the generic sort.
 */
function sortedKeys(record: object): string[] {
  const keys = Object.keys(record);
  if (keys.length > 32) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    for (; j >= 0 && keys[j]! > key; j--) keys[j + 1] = keys[j]!;
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * The cache key of one node run: its type and version, its parsed parameters (defaults filled
 * in, ports merged), the values on its inputs, and `context`: what else shapes the result
 * (the settings a node may read, which service answers). Two runs with the same key give the
 * same result, unless the node says it is not cacheable.
 */
export async function nodeCacheKey(
  def: Pick<AnyNodeDefinition, 'type' | 'version'>,
  params: Record<string, unknown>,
  inputs: Readonly<Record<string, Value | undefined>>,
  context: unknown = null,
): Promise<string> {
  const keyed = withoutMadeOn(inputs);
  const [p, i] = needsRewrite(params) || needsRewrite(keyed)
    ? await Promise.all([withDigests(params), withDigests(keyed)])
    : [params, keyed];
  return digestKeyText(canonicalJson({ f: KEY_FORMAT, t: def.type, v: def.version, p, i, c: context }));
}

/** An image without the pool server that made it; its digest stays the original's (no second hash). */
function imageForKey(image: ImageData): ImageData {
  if (image.madeOn === undefined) return image;
  const { madeOn: _server, ...rest } = image;
  objectDigests.set(rest, digestImage(image));
  return rest;
}

/**
 * The inputs as a key sees them: which server of a pool made an input image is left out, so a
 * picture keys the same whichever GPU drew it (and however many there are). Unchanged, and not
 * copied, when no image says.
 */
function withoutMadeOn(inputs: Readonly<Record<string, Value | undefined>>): Readonly<Record<string, Value | undefined>> {
  const marked = (v: Value | undefined) => (v?.kind === 'image' && v.value.madeOn !== undefined) || (v?.kind === 'images' && v.value.some((i) => i.madeOn !== undefined));
  if (!Object.values(inputs).some(marked)) return inputs;
  const out = keyedRecord<Value | undefined>();
  for (const [port, v] of Object.entries(inputs)) {
    out[port] = v?.kind === 'image' ? { kind: 'image', value: imageForKey(v.value) } : v?.kind === 'images' ? { kind: 'images', value: v.value.map(imageForKey) } : v;
  }
  return out;
}

/**
 * Digests of key texts, the most recently used (a few megabytes at most: a key text is short,
 * long strings are in it as their digest). An unchanged node gives the same text on every run
 * and every estimate, and the editor asks for an estimate as the graph changes.
 */
const keyDigests = createMemo<Promise<string>>({ maxEntries: 4096, maxKeyChars: 2 * 1024 * 1024 });

function digestKeyText(text: string): Promise<string> {
  let d = keyDigests.get(text);
  if (d === undefined) {
    d = sha256Hex(text);
    keyDigests.set(text, d);
  }
  return d;
}
