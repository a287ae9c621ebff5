/**
 * Recognising credentials and endpoints, so that a workflow file never carries them (docs/decisions.md,
 * "Where requests go"). Two separate questions:
 * - keys: is this field *named* like a secret or an endpoint (`api_key`, `Authorization`,
 *   `baseUrl`)? Judged on the key's words, so `max_tokens` or a prompt that says "token" is fine;
 * - values: does this text *contain* something shaped like a credential (`Bearer …`, `sk-…`,
 *   a JWT, a URL with a password in it)? Judged on well-known token shapes only.
 * Nothing here ever returns or formats the secret itself.
 */

/** What a credential-shaped piece of text looks like, and where it is in the text. */
export interface CredentialLike {
  /** A short description for messages, e.g. 'a bearer token'. Never the text itself. */
  kind: string;
  start: number;
  end: number;
}

interface Shape {
  kind: string;
  pattern: RegExp;
}

/** Shapes of real credentials: prefixes and lengths that prose does not produce. */
const SHAPES: readonly Shape[] = [
  { kind: 'a bearer token', pattern: /\bBearer\s+(?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{16,}=*/gi },
  { kind: 'an API key (sk-…)', pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g },
  { kind: 'a Stripe-style key', pattern: /(?<![A-Za-z0-9_])[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'a GitHub token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g },
  { kind: 'a Slack token', pattern: /(?<![A-Za-z0-9_])xox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'a Hugging Face token', pattern: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}/g },
  { kind: 'a Comfy.org API key (comfyui-…)', pattern: /(?<![A-Za-z0-9_-])comfyui-[A-Za-z0-9]{32,}/g },
  { kind: 'a Replicate token', pattern: /(?<![A-Za-z0-9_])r8_[A-Za-z0-9]{30,}/g },
  { kind: 'a Google API key', pattern: /(?<![A-Za-z0-9_])AIza[0-9A-Za-z_-]{35}/g },
  { kind: 'an AWS access key', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g },
  { kind: 'a JSON Web Token', pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'a private key', pattern: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----/g },
  { kind: 'a URL with a password in it', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/gi },
  {
    kind: 'a URL with a key in its query',
    pattern: /[?&](?:access_token|api[_-]?key|token|key|auth|password|secret|sig|signature)=[^&#\s]{8,}/gi,
  },
];

/** Something every shape starts with: one cheap scan rules out nearly all text. */
const CANDIDATE = /bearer|sk-|comfyui-|k_live_|k_test_|gh[pousr]_|github_pat_|xox|hf_|r8_|AIza|AKIA|ASIA|eyJ|PRIVATE KEY|:\/\/|[?&]/i;

/** A long base64 payload (an embedded image) is data, not text: scanning it only finds noise. */
const BASE64_PAYLOAD = /^(?:data:[\w.+-]+\/[\w.+-]+;base64,)?[A-Za-z0-9+/\r\n]+={0,2}$/;
const PAYLOAD_MIN_CHARS = 512;

/**
 * The first credential-shaped piece of `text` (a bearer token, an `sk-…` key, a JWT, a URL with a
 * password…), or undefined. Words alone never match: "token" or "secret" in a prompt is prose.
 */
export function findCredentialLike(text: string): CredentialLike | undefined {
  if (text.length < 16) return undefined;
  if (text.length >= PAYLOAD_MIN_CHARS && BASE64_PAYLOAD.test(text)) return undefined;
  if (!CANDIDATE.test(text)) return undefined;
  let first: CredentialLike | undefined;
  for (const { kind, pattern } of SHAPES) {
    pattern.lastIndex = 0;
    const match = pattern.exec(text);
    if (match && (first === undefined || match.index < first.start)) {
      first = { kind, start: match.index, end: match.index + match[0].length };
    }
  }
  return first;
}

/** Splits `OPENAI_API_KEY`, `apiKey`, `x-api-key`, `APIKey` alike into lower-case words. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** Last words that make a key a secret: `token`, `access_token`, `HF_TOKEN`, `db_password`. */
const SECRET_LAST_WORDS = new Set([
  'token', 'secret', 'password', 'passwd', 'passphrase', 'pwd', 'apikey', 'authorization',
  'credential', 'credentials', 'auth',
  // Common ways to write two words as one.
  'accesstoken', 'authtoken', 'apitoken', 'bearertoken', 'refreshtoken', 'sessiontoken', 'idtoken',
  'secretkey', 'privatekey', 'accesskey', 'clientsecret', 'apisecret',
]);
/** Secret only as the whole key: `ring_bearer` or `fortune_cookie` may well name a LoRA. */
const SECRET_KEYS = new Set(['bearer', 'cookie', 'session']);
/** Word pairs that make a key a secret wherever they occur: `api_key_id`, `private_key_pem`. */
const SECRET_PAIRS: readonly (readonly [string, string])[] = [
  ['api', 'key'], ['access', 'key'], ['secret', 'key'], ['private', 'key'], ['client', 'secret'],
  ['access', 'token'], ['refresh', 'token'], ['auth', 'token'], ['session', 'token'],
];

/**
 * Whether a key names a secret (`token`, `apiKey`, `api_key`, `Authorization`, `password`,
 * `client_secret`…). Decided on the key's words, so `max_tokens`, `tokenizer` or
 * `prompt_token_count` are not secrets.
 */
export function isCredentialKey(key: string): boolean {
  const words = keyWords(key);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (SECRET_LAST_WORDS.has(last) || (words.length === 1 && SECRET_KEYS.has(last))) return true;
  for (let i = 0; i + 1 < words.length; i++) {
    if (SECRET_PAIRS.some(([a, b]) => words[i] === a && words[i + 1] === b)) return true;
  }
  return false;
}

/** Last words that make a key an endpoint: `url`, `baseUrl`, `base_url`, `endpoint`, `apiBase`. */
const ENDPOINT_LAST_WORDS = new Set([
  'url', 'uri', 'urls', 'endpoint', 'endpoints', 'baseurl', 'apibase', 'host', 'hostname', 'webhook',
]);
const ENDPOINT_KEYS = new Set(['origin', 'server', 'proxy', 'base']);

/**
 * Whether a key names a place to send requests (`url`, `baseUrl`, `base_url`, `endpoint`,
 * `api_base`, `host`, `proxy`…). Only the key's last word counts: `url_style` is a style.
 */
export function isEndpointKey(key: string): boolean {
  const words = keyWords(key);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  if (ENDPOINT_LAST_WORDS.has(last)) return true;
  if (words.length === 2 && words[0] === 'api' && last === 'base') return true;
  return words.length === 1 && ENDPOINT_KEYS.has(last);
}
