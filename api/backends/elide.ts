/** Base64 longer than this in a request is shown as a description, not copied into records. */
const ELIDE_OVER = 256;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** What a base64 image is shown as in records: its length, not its characters. */
export const elidedBase64 = (value: string): string => `<base64, ${value.length} characters>`;

/**
 * A copy of a request with every long base64 string replaced by `<base64, N characters>`: what
 * a run's record and an image's manifest keep of what was sent.
 */
export function elideImages(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > ELIDE_OVER && BASE64.test(value) ? elidedBase64(value) : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(elideImages);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = elideImages(v);
  return out;
}
