/**
 * Images to and from hosted providers. Both take an input image as a `data:` URI inside the JSON
 * body: made from the request's base64 as it is (a string prefix, nothing decoded or re-encoded;
 * the format is read from the first bytes for the mime type). Both answer with an image as a
 * `data:` URI (fal's `sync_mode`) or as a URL to download without any credential.
 */
import { sniffImageFormat, type ImageFormat } from '../../image-data';
import { base64ByteLength, base64Format, FORMAT_MIME } from '../openai/image-info';

export { base64ByteLength, base64Format };

/** The `data:` URI of a base64 image, its mime type from its first bytes (PNG when unknown). */
export function toDataUri(b64: string): string {
  const format = base64Format(b64);
  return `data:${format === undefined ? 'image/png' : FORMAT_MIME[format]};base64,${b64}`;
}

/** The base64 inside a `data:` URI with base64 data, or undefined for anything else. */
export function dataUriBase64(uri: string): string | undefined {
  const match = /^data:[^;,]*(?:;[^;,]*)*;base64,/i.exec(uri);
  return match === null ? undefined : uri.slice(match[0].length);
}

/** The format of image bytes, for a downloaded output. */
export function bytesFormat(bytes: Uint8Array): ImageFormat | undefined {
  return sniffImageFormat(bytes);
}

/** How an input image appears in a record: its size and format, never its bytes. */
export function describeInput(field: string, b64: string): string {
  const format = base64Format(b64) ?? 'unknown format';
  return `${field}: data URI, ${format}, ${base64ByteLength(b64)} bytes`;
}
