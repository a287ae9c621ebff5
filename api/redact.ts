/**
 * Keeping credentials out of text that may echo them: error messages built from what a server
 * answered, URLs, log lines, header dumps. Never applied to what people and models wrote (prompts,
 * the model's text, output names): the token is never part of a request's body, so it can only
 * come back through a server's words.
 *
 * Two protections, because a credential need not look like one (local OpenAI-compatible servers
 * take any token, and people give them `none`, `ollama`, `lm-studio`, even `text`):
 * - where a credential goes (an `Authorization` or `x-api-key` field, after `Bearer` or `Basic`, a
 *   URL's password or its `?key=`), the value is removed whatever it is, so even `ollama` is never
 *   printed back from the request's own headers;
 * - anywhere else, a secret is replaced only when it is distinctive (see `isDistinctiveSecret`):
 *   replacing `text` in every message would rewrite the messages, not protect anything.
 */

export const REDACTED = '[redacted]';

/** Lower-case or capitalised words joined by separators: text any sentence may contain. */
const WORDS = /^[a-z]+(?:[-_.: ][a-z]+)*$/i;
/** A passphrase of words this long is a secret of its own, not a placeholder. */
const PASSPHRASE_CHARS = 20;
/** Shorter values occur in ordinary text (`none`, `text`, `ollama`); only their context gives them away. */
export const MIN_DISTINCTIVE_CHARS = 8;

/**
 * Whether finding `secret` anywhere in a text means the secret leaked, rather than a word that
 * happens to be the same: at least 8 characters and not a word or a few words (`lm-studio`,
 * `not-needed`, `admin:admin`) unless as long as a passphrase. Real keys (`sk-…`, random
 * strings, base64) always are.
 */
export function isDistinctiveSecret(secret: string): boolean {
  const value = secret.trim();
  if (value.length < MIN_DISTINCTIVE_CHARS) return false;
  return !(WORDS.test(value) && value.length < PASSPHRASE_CHARS);
}

/** The secrets worth replacing wherever they occur (`isDistinctiveSecret`), trimmed. */
export function distinctiveSecrets(secrets: readonly string[]): string[] {
  return secrets.map((s) => s.trim()).filter(isDistinctiveSecret);
}

/** Fields that carry a credential, in a header dump, JSON, a Python dict or `name=value`. */
const CREDENTIAL_FIELD = /\b((?:proxy-)?authorization|x-api-key|api-key|x-goog-api-key|x-auth-token)(\\?["']?\s*[:=]\s*\\?["']?)((?:bearer|basic|token)\s+)?([^\s"'\\,;}\]]+)/gi;
/** A value after an authentication scheme, wherever it is quoted. */
const SCHEME_VALUE = /\b(bearer|basic)(\s+)([A-Za-z0-9._~+/=:-]+)/gi;
/** `scheme://user:password@` or `scheme://token@`. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi;
/** A query parameter named like a credential. */
const URL_QUERY_KEY = /([?&](?:access_token|api[_-]?key|key|token|auth|password|secret|sig|signature)=)[^&#\s"'<>]+/gi;

/** One word as prose writes it: `token`, `Token`, `TOKEN`; never base64's mixed case. */
const ONE_WORD = /^(?:[A-Z]?[a-z]+|[A-Z]+)$/;

/**
 * A value after `Bearer` that is a plain word ("Bearer token required") stays, anything token-like
 * goes; after `basic`, an English word too, only base64 goes ("Basic dXNlcjpwdw==", not "basic 512px").
 */
function schemeValueIsCredential(scheme: string, value: string, known: ReadonlySet<string>): boolean {
  if (known.has(value)) return true;
  const word = ONE_WORD.test(value) && value.length < PASSPHRASE_CHARS;
  if (/^basic$/i.test(scheme)) return /^[A-Za-z0-9+/]{8,}={0,2}$/.test(value) && !word;
  return !word;
}

/**
 * `text` with every credential taken out: values in credential places whatever they are, and
 * each distinctive secret (and its URL-encoded form) wherever it appears. For text that may
 * echo a request: a server's error, a URL, a log line. Never for prompts or a model's text.
 */
export function redact(text: string, secrets: readonly string[]): string {
  const known = new Set(secrets.map((s) => s.trim()).filter((s) => s !== ''));
  const out = text
    .replace(CREDENTIAL_FIELD, (_m, name: string, sep: string, scheme: string | undefined) => `${name}${sep}${scheme ?? ''}${REDACTED}`)
    .replace(SCHEME_VALUE, (match, scheme: string, space: string, value: string) => (
      schemeValueIsCredential(scheme, value, known) ? `${scheme}${space}${REDACTED}` : match))
    .replace(URL_USERINFO, `$1${REDACTED}@`)
    .replace(URL_QUERY_KEY, `$1${REDACTED}`);
  const distinctive = distinctiveSecrets([...known]);
  return withoutDistinctiveSecrets(out, [...distinctive, ...distinctive.map(encodeURIComponent)]);
}

/**
 * `text` with each distinctive secret replaced by `mark`, and nothing else touched: for files
 * that travel (an embedded workflow, a manifest) where a person may have pasted a real key into a
 * field. A short or word-like value there is someone's words and stays.
 */
export function withoutDistinctiveSecrets(text: string, secrets: readonly string[], mark = REDACTED): string {
  return distinctiveSecrets(secrets).reduce((out, secret) => out.split(secret).join(mark), text);
}
