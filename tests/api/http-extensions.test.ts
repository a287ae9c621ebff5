/** The shared HTTP layer's multipart bodies, error statuses handed back, and paths with a query. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { readBody } from '../../api/exchange';
import { createHttp } from '../../api/http';
import { sendJson, sendText, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server';

let server: MisbehavingServer;
beforeEach(async () => { server = await startMisbehavingServer(); });
afterEach(async () => { await server.close(); });

const http = (base = server.url) => createHttp({ baseUrl: base, token: 'tok-x', retry: { maxAttempts: 1 } }, 1024 * 1024);

describe('shared HTTP layer extensions', () => {
  it('sends a FormData body as multipart, with fetch choosing the boundary, and the token', async () => {
    server.handle((_req, res) => sendJson(res, 200, { ok: true }));
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), 'a.png');
    form.append('type', 'input');
    const exchange = await http().open({ method: 'POST', path: '/upload/image', body: form, accept: 'application/json' }, 1);
    await readBody(exchange, 1024, 'refuse');
    const [sent] = server.requests;
    expect(sent?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent?.headers.authorization).toBe('Bearer tok-x');
    expect(sent?.body).toContain('filename="a.png"');
    expect(sent?.body).toContain('name="type"');
  });

  it('hands back a status listed in acceptStatus instead of throwing, and still throws the others', async () => {
    server.handle((req, res) => (req.index === 1 ? sendJson(res, 400, { error: { message: 'bad graph' } }) : sendText(res, 404, 'no')));
    const exchange = await http().open({ method: 'POST', path: '/prompt', body: {}, accept: 'application/json', acceptStatus: [400] }, 1);
    expect(exchange.response.status).toBe(400);
    expect(JSON.parse(await readBody(exchange, 1024, 'refuse'))).toEqual({ error: { message: 'bad graph' } });
    const error = await http().open({ method: 'POST', path: '/prompt', body: {}, accept: 'application/json', acceptStatus: [400] }, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
  });

  it('puts a query in the query string, under a base path, and leaves it out of the endpoint shown', async () => {
    server.handle((_req, res) => sendText(res, 200, 'x'));
    const h = http(`${server.url}/comfy/`);
    const query = new URLSearchParams({ filename: 'a b.png', type: 'output' });
    await readBody(await h.open({ method: 'GET', path: `/view?${query.toString()}`, accept: '*/*' }, 1), 1024, 'refuse');
    expect(server.requests[0]?.url).toBe('/comfy/view?filename=a+b.png&type=output');
    expect(h.endpoint('GET', '/view?filename=secret.png')).toBe(`GET ${server.url}/comfy/view`);
  });
});
