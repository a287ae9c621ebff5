/**
 * A pool behind the server's forwarder, as /api/info tells the editor of it: every server by its
 * label and whether it is down, never an address or a credential; and what the pool lists is what
 * any of its servers has, asked of each server with its own credential.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForwarderConfig } from '../../server/config';
import { backendLists } from '../../server/routes/backend-lists';
import { closedPort } from '../helpers/closed-port';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { raw } from './http';

const DESK_TOKEN = 'desk-token-5c1b7e9a3f';
const RACK_TOKEN = 'rack-token-0e4d2a8c6b';
let desk: ComfyDouble;
let rack: ComfyDouble;
let off: string;

beforeAll(async () => {
  desk = await startComfyDouble({ checkpoints: ['sd_xl_base_1.0.safetensors'] });
  rack = await startComfyDouble({ checkpoints: ['sd_xl_base_1.0.safetensors', 'juggernaut_xl.safetensors'] });
  off = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(async () => {
  await Promise.all([desk.close(), rack.close()]);
});

const forwarder = (servers: { label: string; url: string }[]): ForwarderConfig => ({
  imageBaseUrl: undefined, textBaseUrl: undefined, token: undefined, backendToken: undefined,
  imageBackends: { sdxl: { kind: 'comfyui', baseUrl: servers[0]!.url, baseUrls: servers } },
  serverTokens: new Map([['desk', DESK_TOKEN], ['rack', RACK_TOKEN]]),
});

describe('the lists of a pool', () => {
  it('are what any server has, each asked with its own credential', async () => {
    const lists = backendLists(forwarder([{ label: 'desk', url: desk.url }, { label: 'rack', url: rack.url }]));
    const listed = await lists.get('sdxl');
    expect(listed?.checkpoints?.sort()).toEqual(['juggernaut_xl.safetensors', 'sd_xl_base_1.0.safetensors']);
    expect(lists.answered('sdxl')).toEqual([true, true]);
    const auth = (d: ComfyDouble) => new Set(d.received.requests.map((r) => r.headers.authorization));
    expect(auth(desk)).toEqual(new Set([`Bearer ${DESK_TOKEN}`]));
    expect(auth(rack)).toEqual(new Set([`Bearer ${RACK_TOKEN}`]));
  });

  it('are not known while a server has not said (an unknown list refuses nothing)', async () => {
    const lists = backendLists(forwarder([{ label: 'desk', url: desk.url }, { label: 'spare', url: off }]));
    expect(await lists.get('sdxl')).toBeUndefined();
    expect(lists.answered('sdxl')).toEqual([true, false]);
  });
});

describe('/api/info with a pool', () => {
  let server: ServerProcess | undefined;
  afterAll(async () => { await server?.stop(); });

  it('lists every server by label and whether it is down, never an address or credential', async () => {
    server = await startServer({
      ATELIER_IMAGE_BACKEND: 'comfyui',
      ATELIER_BACKEND_URL: `desk=${desk.url},rack=${rack.url},spare=${off}`,
      ATELIER_BACKEND_TOKEN_DESK: DESK_TOKEN,
      ATELIER_BACKEND_TOKEN_RACK: RACK_TOKEN,
    });
    const expected = [{ label: 'desk', down: false }, { label: 'rack', down: false }, { label: 'spare', down: true }];
    type Info = { forwarder: { imageBackends: Record<string, { kind: string; servers?: unknown; listed?: unknown }> } };
    // /api/info waits a bounded time for the servers' answers: on a loaded machine, ask again until they are in.
    let text = '';
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      text = (await raw(server.url, '/api/info')).text;
      if (JSON.stringify((JSON.parse(text) as Info).forwarder.imageBackends.sdxl?.servers) === JSON.stringify(expected)) break;
    }
    const sdxl = (JSON.parse(text) as Info).forwarder.imageBackends.sdxl;
    expect(sdxl?.servers).toEqual(expected);
    // The spare server has not said what it has: no list, so the editor refuses nothing on it.
    expect(sdxl?.listed).toBeUndefined();
    for (const secret of [DESK_TOKEN, RACK_TOKEN]) expect(text).not.toContain(secret);
    for (const address of [desk.url, rack.url, off]) expect(text).not.toContain(new URL(address).port);
  }, 60_000);
});
