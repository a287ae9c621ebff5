/**
 * Telling a CORS refusal from a server that is not there. A browser rejects a fetch to another
 * origin with the same bare TypeError ("Failed to fetch") whether the server refused this page
 * (no Access-Control-Allow-Origin for it, or ComfyUI's 403 to a foreign Origin) or nothing
 * answered at all, and it hides which on purpose. One question it does answer: a `no-cors`
 * request gets an opaque response from any server that answers, whatever its CORS rules (a GET
 * in that mode carries no Origin, so even ComfyUI's origin check lets it through), and fails
 * like the first only when nothing answers. So after such a failure, one `no-cors` GET of the
 * server's root says which it was.
 */
import type { FetchLike } from './exchange';

/**
 * Why a browser's request to another origin got no answer it could read:
 * - `cors`: the server answered, but not to this page: it does not allow this page's origin;
 * - `unreachable`: nothing answered (not running, wrong address, network down).
 */
export type Unanswered = 'cors' | 'unreachable';

/** How long the probe may take: an answer or a refusal comes fast, a silent host does not. */
export const PROBE_MS = 5_000;

/** Whether `error` is how a browser reports a failed request from `pageOrigin` to another origin. */
export function isCrossOriginFailure(url: string, pageOrigin: string | undefined, error: unknown): boolean {
  return pageOrigin !== undefined && error instanceof TypeError && new URL(url).origin !== pageOrigin;
}

/**
 * After a cross-origin request failed (`isCrossOriginFailure`): `cors` when the server at `url`'s
 * origin answers a `no-cors` GET, `unreachable` when that fails too or takes longer than PROBE_MS.
 */
export async function probeUnanswered(fetch: FetchLike, url: string, signal?: AbortSignal): Promise<Unanswered> {
  const deadline = AbortSignal.timeout(PROBE_MS);
  const stop = signal === undefined ? deadline : AbortSignal.any([signal, deadline]);
  try {
    // `cache` is a browser's RequestInit field (Node's types lack it): a cached answer would say nothing about now.
    // A no-cors request must follow redirects (the Fetch standard refuses any other mode with a TypeError).
    const init = { method: 'GET', mode: 'no-cors', credentials: 'omit', cache: 'no-store', signal: stop } as RequestInit;
    const response = await fetch(`${new URL(url).origin}/`, init);
    await response.body?.cancel().catch(() => undefined);
    return 'cors';
  } catch {
    return 'unreachable';
  }
}

/** The words for a browser's unanswered request from `pageOrigin` to `url`, whatever the server is. */
export function unansweredDetail(why: Unanswered, url: string, pageOrigin: string): string {
  const target = new URL(url).origin;
  return why === 'cors'
    ? `${target} answered, but does not allow requests from this page (CORS): allow the origin ${pageOrigin} there, or use the route through this server (Settings)`
    : `nothing answered at ${target}: is the server running, and is the address right?`;
}
