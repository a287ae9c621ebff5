/**
 * A pool's errors name a server by its label only. The servers here say their own address and
 * echo the request's credential back in their error bodies, as a proxy in front of a GPU box may;
 * whatever the pool throws (its message, detail, endpoint, the service's words, the cause, its
 * JSON) holds neither the address nor the credential, and still says which server it was.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createBackend } from '../../../api/backends/index';
import { addressHider } from '../../../api/backends/pool/hide';
import type { PoolBackend } from '../../../api/backends/pool/index';
import { ApiError } from '../../../api/errors';
import { closedPort } from '../../helpers/closed-port';
import { sendJson, startMisbehavingServer, type MisbehavingServer } from '../../helpers/misbehaving-server';
import { NAMES, NodeWebSocket } from '../comfyui/helpers';

const TOKENS = ['desk-credential-7f3a9c1e5b', 'rack-credential-2d8e4f6a0c'];

const servers: MisbehavingServer[] = [];
let pool: PoolBackend | undefined;
afterEach(async () => {
  pool?.close();
  pool = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Everything an error carries that a person, a log or a run record may read. */
function texts(error: ApiError): string {
  return [error.message, error.detail, error.endpoint, error.serviceMessage, error.serviceBody, String(error.cause ?? ''), JSON.stringify(error)].join('\n');
}

function expectNoAddressOrToken(error: ApiError, addresses: readonly string[]): void {
  const all = texts(error);
  for (const address of addresses) {
    const { host, hostname, port } = new URL(address);
    expect(all).not.toContain(host);
    expect(all).not.toContain(hostname);
    expect(all).not.toContain(port);
  }
  for (const token of TOKENS) expect(all).not.toContain(token);
}

/** A server in front of ComfyUI that refuses every prompt, quoting its address and the request's credential. */
async function talkative(): Promise<MisbehavingServer> {
  const server = await startMisbehavingServer((req, res) => {
    const where = `http://${req.headers.host ?? ''}${req.url}`;
    if (req.method === 'POST' && req.url.endsWith('/prompt')) {
      return sendJson(res, 500, { error: { message: `upstream at ${where} failed for ${req.headers.authorization ?? 'no credential'}`, type: 'proxy' }, node_errors: {} });
    }
    sendJson(res, 404, { error: `nothing at ${where}` });
  });
  servers.push(server);
  return server;
}

describe('a pool error', () => {
  it('names the server that failed by its label, never its address or credential', async () => {
    const desk = await talkative();
    const rack = await talkative();
    pool = await createBackend({
      config: { kind: 'comfyui', baseUrl: desk.url, baseUrls: [{ label: 'desk', url: desk.url }, { label: 'rack', url: `${rack.url}/` }], names: NAMES },
      credentials: TOKENS,
    }, { WebSocket: NodeWebSocket, retry: { maxAttempts: 1 } }) as PoolBackend;
    const failures = await Promise.all([1, 2].map((seed) => pool!.generate('sdxl', { prompt: 'a lighthouse', steps: 2, seed }).catch((e: unknown) => e)));
    // The servers did see the credentials: the error bodies quoted them.
    expect(desk.requests.some((r) => r.headers.authorization?.includes(TOKENS[0]!) === true)).toBe(true);
    expect(failures.map((f) => (f as ApiError).detail.split(':')[0]).sort()).toEqual(['on desk', 'on rack']);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).detail).toContain('failed for');
      expectNoAddressOrToken(failure as ApiError, [desk.url, rack.url]);
    }
  }, 30_000);

  it('says which servers are down by label when none answers', async () => {
    const addresses = [`http://127.0.0.1:${await closedPort()}`, `http://127.0.0.1:${await closedPort()}`];
    pool = await createBackend({
      config: { kind: 'comfyui', baseUrl: addresses[0]!, baseUrls: [{ label: 'desk', url: addresses[0]! }, { label: 'rack', url: addresses[1]! }], names: NAMES },
      credentials: TOKENS,
    }, { WebSocket: NodeWebSocket, retry: { maxAttempts: 1 } }) as PoolBackend;
    const failure = await pool.generate('sdxl', { prompt: 'a lighthouse', steps: 2, seed: 1 }).catch((e: unknown) => e) as ApiError;
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure.detail).toMatch(/desk, rack have everything but are down/);
    expectNoAddressOrToken(failure, addresses);
  }, 30_000);

  it('hides every form of an address: any scheme, userinfo, path, host:port, the host alone', () => {
    const hide = addressHider('gpu2', ['https://user:pw@gpu-box.lan:8443/comfy/']);
    expect(hide('POST https://gpu-box.lan:8443/comfy/prompt: connect ECONNREFUSED gpu-box.lan:8443; ws://gpu-box.lan:8443/comfy/ws; getaddrinfo ENOTFOUND gpu-box.lan'))
      .toBe('POST gpu2/prompt: connect ECONNREFUSED gpu2; gpu2/ws; getaddrinfo ENOTFOUND gpu2');
    expect(addressHider('gpu1', ['http://10.0.0.7'])('at 10.0.0.7:80 and 10.0.0.70')).toBe('at gpu1 and 10.0.0.70');
  });
});
