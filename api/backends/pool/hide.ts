/**
 * A pool's errors name a server by the label the person gave it, never by its address: the
 * address of a rented GPU or a machine on someone's network is not for a run's records, logs or
 * a shared screenshot. A server's backend writes its address into what it says ("ComfyUI is not
 * running at http://10.0.0.7:8188", `POST http://10.0.0.7:8188/prompt`, "connect ECONNREFUSED
 * 10.0.0.7:8188"); the pool rewrites each such text with the label in its place.
 */
import { ApiError } from '../../errors';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The forms of `address` a text may hold, longest first: the URL (any scheme), host:port, host. */
function formsOf(address: string): string[] {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return address.trim() === '' ? [] : [address.trim()];
  }
  const path = url.pathname.replace(/\/+$/, '');
  const forms = [`${url.host}${path}`, url.host];
  // A default port is left out of `host`; error texts from the socket name it all the same.
  if (url.port === '') forms.push(`${url.hostname}:${url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80}`);
  forms.push(url.hostname);
  return [...new Set(forms.filter((f) => f !== ''))].sort((a, b) => b.length - a.length);
}

/**
 * A function that puts `label` where any of `addresses` appears in a text: a whole URL of the
 * server (scheme, userinfo and path with it) or its host alone.
 */
export function addressHider(label: string, addresses: readonly string[]): (text: string) => string {
  const forms = [...new Set(addresses.flatMap(formsOf))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return (text) => text;
  const alternatives = forms.map(escape).join('|');
  // Scheme and userinfo before the host go with it; so does the path after a whole URL.
  const pattern = new RegExp(`(?:[a-z][a-z0-9+.-]*://)?(?:[^\\s/@]*@)?(?:${alternatives})(?![a-z0-9-])`, 'gi');
  return (text) => text.replace(pattern, label);
}

/** The endpoint's server, `scheme://host`, from `METHOD URL`. */
function endpointOrigin(endpoint: string): string | undefined {
  const url = endpoint.split(' ').find((part) => /^[a-z][a-z0-9+.-]*:\/\//i.test(part));
  if (url === undefined) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * `error` as the pool throws it: its detail led by `on <label>: `, and the server's address (as
 * given in the settings, and as its endpoint names it) replaced by the label everywhere it holds
 * text, the endpoint and the cause included. Credentials were taken out by the backend already.
 */
export function namedByLabel(error: ApiError, label: string, address: string | undefined): ApiError {
  const origin = endpointOrigin(error.endpoint);
  const hide = addressHider(label, [address, origin].filter((a): a is string => a !== undefined));
  return new ApiError({
    kind: error.kind, detail: `on ${label}: ${error.detail}`, endpoint: error.endpoint, attempts: error.attempts,
    retryable: error.retryable, status: error.status, serviceMessage: error.serviceMessage, serviceBody: error.serviceBody,
    partialText: error.partialText, retryAfterMs: error.retryAfterMs, cause: error.cause,
    ...(error.unanswered === undefined ? {} : { unanswered: error.unanswered }),
  }, hide);
}
