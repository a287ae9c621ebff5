/**
 * A backend request that got no answer, in the backend's own words: a server that is running but
 * does not allow this page (CORS, told apart in the browser by api/cors.ts) is told to allow this
 * page's exact origin with the backend's own flag, the one Settings shows; "is it running?" is
 * kept for a connection refused or a server that did not answer.
 */
import type { ApiError } from '../errors';
import type { BackendKind } from './types';

/** Backends people start themselves, whose command line decides which pages may call them. */
export type SelfRunKind = Exclude<BackendKind, 'service' | 'google'>;

/**
 * The command-line option that lets a page at `origin` call each backend from the browser. (The
 * Gemini API is Google's: it answers every page, there is nothing to start it with.)
 */
export function corsFlag(kind: SelfRunKind, origin: string): string {
  switch (kind) {
    case 'comfyui':
      return `--enable-cors-header ${origin}`;
    case 'a1111':
      return `--cors-allow-origins=${origin}`;
    case 'openai':
      // An OpenAI-compatible server people run themselves (LocalAI); the hosted APIs decide on their own.
      return `--cors --cors-allow-origins=${origin}`;
  }
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
export function corsRefusal(kind: SelfRunKind, label: string, where: string, pageOrigin: string | undefined): string {
  const flag = `\`${corsFlag(kind, pageOrigin ?? "<this page's origin>")}\``;
  const start = kind === 'openai' ? `a server you run (LocalAI) takes ${flag}; a hosted API may not allow browsers at all` : `start it with ${flag}`;
  return `${label} at ${where} is running but does not allow requests from this page (CORS): ${start}, or use the route through this server (Settings)`;
}
