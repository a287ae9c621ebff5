/** A base URL people may type: http(s), no credentials in it, no query; trailing slashes removed. */
export function checkBaseUrl(value: string): { ok: true; url: string } | { ok: false; reason: string } {
  const trimmed = value.trim();
  if (trimmed === '') return { ok: false, reason: 'is empty' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, reason: 'is not a URL (expected something like https://api.example.com)' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'must start with https:// (or http://)' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'must not hold a user name or password: put the token or password in its own field' };
  if (url.search !== '' || url.hash !== '') return { ok: false, reason: 'must not have a ?query or #fragment' };
  return { ok: true, url: `${url.origin}${url.pathname}`.replace(/\/+$/, '') };
}
