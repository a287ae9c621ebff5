/**
 * A browser's request to another origin that fails: a bare TypeError whether the server refused
 * the page (CORS) or is not there. A `no-cors` probe of the server's root tells them apart, and
 * each backend says CORS first, with its own flag for this page's exact origin, keeping "is it
 * running?" for a server that did not answer. The browser is played by a fake fetch that behaves
 * as one does: the request rejects, the probe resolves with an opaque response when the server is up.
 */
import { describe, expect, it } from 'vitest';
import { createA1111Backend } from '../../api/backends/a1111/index';
import { createComfyBackend } from '../../api/backends/comfyui/index';
import { createOpenAIImagesBackend } from '../../api/backends/openai/index';
import type { ImageBackend } from '../../api/backends/types';
import { createChatClient } from '../../api/chat-client';
import { ApiError } from '../../api/errors';
import type { FetchLike } from '../../api/exchange';

const PAGE = 'http://127.0.0.1:8787';

interface FakeBrowser {
  fetch: FetchLike;
  calls: { url: string; mode?: RequestMode; authorization?: string }[];
}

/** A browser's fetch to a server at another origin that is `up` (but allows no other origin) or not there. */
function browser(up: boolean): FakeBrowser {
  const calls: FakeBrowser['calls'] = [];
  const fetch: FetchLike = (url, init) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    calls.push({ url, ...(init.mode === undefined ? {} : { mode: init.mode }), ...(headers.Authorization === undefined ? {} : { authorization: headers.Authorization }) });
    // As the Fetch standard has it: a no-cors request that does not follow redirects is refused outright.
    if (init.mode === 'no-cors' && (init.redirect ?? 'follow') !== 'follow') return Promise.reject(new TypeError('Failed to fetch'));
    // A no-cors request reads nothing, so nothing is refused: it fails only when nothing answers.
    if (init.mode === 'no-cors' && up) return Promise.resolve(new Response(null, { status: 200 }));
    return Promise.reject(new TypeError('Failed to fetch'));
  };
  return { fetch, calls };
}

async function caught(run: () => Promise<unknown>): Promise<ApiError> {
  const error = await run().then(() => undefined, (e: unknown) => e);
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const common = (fake: FakeBrowser) => ({ pageOrigin: PAGE, fetch: fake.fetch, retry: { maxAttempts: 3 } });
const backends: [string, string, (fake: FakeBrowser) => ImageBackend][] = [
  ['ComfyUI', 'http://127.0.0.1:8188', (fake) => createComfyBackend({ ...common(fake), baseUrl: 'http://127.0.0.1:8188', names: { checkpoint: 'x.safetensors' } })],
  ['AUTOMATIC1111', 'http://127.0.0.1:7860', (fake) => createA1111Backend({ ...common(fake), baseUrl: 'http://127.0.0.1:7860', names: { checkpoint: 'x.safetensors' }, token: 'me:pw' })],
  ['OpenAI-compatible', 'http://127.0.0.1:8080', (fake) => createOpenAIImagesBackend({ ...common(fake), baseUrl: 'http://127.0.0.1:8080', token: 'sk-local' })],
];

describe('a CORS refusal, told from a server that is not there', () => {
  it('the shared client: CORS when the probe is answered, not reachable when it is not; neither retried', async () => {
    const up = browser(true);
    const cors = await caught(() => createChatClient({ baseUrl: 'http://127.0.0.1:9000', token: 'sk-x', ...common(up) }).complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    expect(cors).toMatchObject({ kind: 'network', unanswered: 'cors', retryable: false, attempts: 1 });
    expect(cors.detail).toBe(`http://127.0.0.1:9000 answered, but does not allow requests from this page (CORS): allow the origin ${PAGE} there, or use the route through this server (Settings)`);
    // The probe went to the server's root, in no-cors mode, without the token.
    expect(up.calls).toEqual([{ url: 'http://127.0.0.1:9000/v1/chat/completions', authorization: 'Bearer sk-x' }, { url: 'http://127.0.0.1:9000/', mode: 'no-cors' }]);

    const down = browser(false);
    const gone = await caught(() => createChatClient({ baseUrl: 'http://127.0.0.1:9000', ...common(down) }).complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    expect(gone).toMatchObject({ kind: 'network', unanswered: 'unreachable', retryable: false });
    expect(gone.detail).toBe('nothing answered at http://127.0.0.1:9000: is the server running, and is the address right?');
    expect(down.calls).toHaveLength(2);
  });

  it('from its own origin, the page is not asked about CORS: the failure is the network\'s, and retried', async () => {
    const fake = browser(true);
    const error = await caught(() => createChatClient({ baseUrl: `${PAGE}/local/text`, ...common(fake) }).complete({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }));
    expect(error).toMatchObject({ kind: 'network', retryable: true, attempts: 3 });
    expect(error.unanswered).toBeUndefined();
    expect(fake.calls.every((c) => c.mode === undefined)).toBe(true);
  });

  it.each(backends)('%s running without CORS for this page: CORS first, with the flag for this page\'s origin', async (label, url, make) => {
    const error = await caught(() => make(browser(true)).generate('sdxl', { prompt: 'a fox' }));
    expect(error.kind).toBe('network');
    const expected = {
      ComfyUI: `ComfyUI at ${url} is running but does not allow requests from this page (CORS): start it with \`--enable-cors-header ${PAGE}\`, or use the route through this server (Settings)`,
      AUTOMATIC1111: `AUTOMATIC1111 at ${url} is running but does not allow requests from this page (CORS): start it with \`--cors-allow-origins=${PAGE}\`, or use the route through this server (Settings) (and with --api)`,
      'OpenAI-compatible': `the server at 127.0.0.1:8080 is running but does not allow requests from this page (CORS): a server you run (LocalAI) takes \`--cors --cors-allow-origins=${PAGE}\`; a hosted API may not allow browsers at all, or use the route through this server (Settings)`,
    }[label];
    expect(error.detail).toBe(expected);
    expect(error.detail).not.toMatch(/is it running|main\.py/);
  });

  it.each(backends)('%s not there: "is it running?", no CORS advice', async (label, url, make) => {
    const error = await caught(() => make(browser(false)).generate('sdxl', { prompt: 'a fox' }));
    expect(error.kind).toBe('network');
    expect(error.detail).toMatch(/^nothing answered at /);
    expect(error.detail).toContain(label === 'OpenAI-compatible' ? new URL(url).host : url);
    expect(error.detail).toMatch(/running/);
    expect(error.detail).not.toMatch(/CORS|cors/);
  });

  it('ComfyUI\'s list of names for Settings says the same', async () => {
    const make = backends[0]![2];
    const error = await caught(() => make(browser(true)).listNames!({}));
    expect(error.detail).toMatch(/^ComfyUI at http:\/\/127\.0\.0\.1:8188 is running but does not allow requests from this page \(CORS\): start it with `--enable-cors-header http:\/\/127\.0\.0\.1:8787`/);
  });
});
