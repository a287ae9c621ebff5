/**
 * A backend request that got no answer, in the backend's own words: a server that is running but
 * does not allow this page (CORS, told apart in the browser by api/cors.ts) is told to allow this
 * page's exact origin with the backend's own flag, the one Settings shows; "is it running?" is
 * kept for a connection refused or a server that did not answer.
 */
import type { ApiError } from '../errors';
import type { BackendDescription } from './describe';

/** The command-line option that lets a page at `origin` call the backend from the browser, from its description. */
export function corsFlag(description: BackendDescription, origin: string): string {
  return description.browser.direct ? description.browser.corsFlag(origin) : '';
}

/**
 * Why a request got no answer: `cors` (the server is up but refuses this page's origin),
 * `refused` (nothing listens at that port), `unreachable` (nothing answered), or undefined for
 * anything else (an HTTP error, a timeout, a connection lost halfway).
 */
export function whyUnanswered(error: ApiError): 'cors' | 'refused' | 'unreachable' | undefined {
  if (error.kind !== 'network') return undefined;
  if (error.unanswered !== undefined) return error.unanswered;
  if (/ECONNREFUSED|connection refused/i.test(`${error.detail} ${String(error.cause ?? '')}`)) return 'refused';
  if (/ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(`${error.detail} ${String(error.cause ?? '')}`)) return 'unreachable';
  return undefined;
}

/** `<label> at <where> answered, but does not allow this page (CORS): start it with <flag for this page's origin>…`. */
export function corsRefusal(description: BackendDescription, label: string, where: string, pageOrigin: string | undefined): string {
  const flag = `\`${corsFlag(description, pageOrigin ?? "<this page's origin>")}\``;
  const start = description.kind === 'openai' ? `a server you run (LocalAI) takes ${flag}; a hosted API may not allow browsers at all` : `start it with ${flag}`;
  return `${label} at ${where} is running but does not allow requests from this page (CORS): ${start}, or use the route through this server (Settings)`;
}
