/**
 * Fetches an output image a provider answered with as a URL (Replicate's `replicate.delivery`, a
 * fal CDN URL when `sync_mode` was not honoured). Sent with no credential: the key is for the
 * provider's API, never for wherever a response points. Bounded in size and time like every call.
 */
import { ApiError } from '../../errors';
import { DEFAULT_TIMEOUTS, type FetchLike, type Timeouts } from '../../http';
import { formatBytes, openExchange } from '../../exchange';
import { bytesToBase64 } from '../../image-data';
import { dataUriBase64 } from './data-uri';

export interface DownloadOptions {
  fetch?: FetchLike;
  timeouts?: Partial<Timeouts>;
  maxBytes: number;
  signal?: AbortSignal;
  /** Secrets to keep out of any error text. */
  secrets: readonly string[];
}

/** An output image as base64: a `data:` URI's own base64, or the bytes of an http(s) URL. */
export async function outputBase64(ref: string, options: DownloadOptions): Promise<string> {
  const inline = dataUriBase64(ref);
  if (inline !== undefined) return inline;
  let url: URL;
  try {
    url = new URL(ref);
  } catch {
    throw new TypeError(`the provider answered with an image reference that is neither a data URI nor a URL ('${ref.slice(0, 60)}')`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`the provider answered with an image URL Atelier does not fetch (${url.protocol})`);
  const exchange = await openExchange({
    url: url.href, authorization: undefined, secrets: options.secrets,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts }, maxRetryAfterMs: 0,
  }, { method: 'GET', path: '', accept: 'image/*' }, 1, options.signal);
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of exchange.chunks()) {
    total += chunk.byteLength;
    if (total > options.maxBytes) {
      exchange.close();
      throw new ApiError({
        kind: 'invalid-response', endpoint: exchange.endpoint, attempts: 1, retryable: false, status: exchange.response.status,
        detail: `the output image is larger than the ${formatBytes(options.maxBytes)} this client accepts; refused`,
      }, options.secrets);
    }
    parts.push(chunk);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytesToBase64(bytes);
}
