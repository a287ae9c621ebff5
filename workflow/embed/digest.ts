/**
 * The base64 of embedded files, read leniently (standard or URL-safe, padding optional); the
 * SHA-256 is the one in api/image-data.ts.
 */
const BASE64_VALUES = (() => {
  const table = new Int16Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  // The URL-safe alphabet decodes to the same bytes.
  table[0x2d] = 62;
  table[0x5f] = 63;
  return table;
})();

/**
 * The bytes of base64 text (standard or URL-safe, padding optional), or undefined when it is not
 * base64. Written here because atob needs a string copy and Buffer is Node-only.
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x3d) end--;
  if (end % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    const value = code < 128 ? BASE64_VALUES[code]! : -1;
    if (value < 0) return undefined;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (buffer >>> bits) & 0xff;
    }
  }
  return out;
}
