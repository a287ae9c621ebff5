/**
 * Contract: with ATELIER_LOCAL_TOKEN set, the local engines require exactly that token (401 with
 * a fixed text otherwise); no token, right or wrong, ever appears in the server's output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../helpers/closed-port';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { postJson, raw } from './http';

const LOCAL_TOKEN = 'atl-local-K7q2Zp9Xw4';
const UPSTREAM_TOKEN = 'upstream-secret-R5t8Yv1Nm3';
const WRONG_TOKEN = 'wrong-guess-H6j3Lk0Pq8';
const SECRETS = [LOCAL_TOKEN, UPSTREAM_TOKEN, WRONG_TOKEN];

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer({
    ATELIER_LOCAL_TOKEN: LOCAL_TOKEN,
    ATELIER_TOKEN: UPSTREAM_TOKEN,
    ATELIER_IMAGE_BASE_URL: `http://127.0.0.1:${await closedPort()}/api`,
  });
});
afterAll(async () => {
  await server.stop();
});

const IMAGE = '/local/image/generate/sd';
const CHAT = '/local/text/v1/chat/completions';
const image = { prompt: 'a red kite', steps: 2 };
const chat = { model: 'placeholder', messages: [{ role: 'user', content: 'hello' }] };
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('ATELIER_LOCAL_TOKEN', () => {
  it('refuses a missing, wrong or malformed token with 401 and a fixed text that echoes nothing', async () => {
    const attempts = [
      await postJson(server.url, IMAGE, image),
      await postJson(server.url, IMAGE, image, bearer(WRONG_TOKEN)),
      await postJson(server.url, IMAGE, image, bearer(`${LOCAL_TOKEN}x`)),
      await postJson(server.url, IMAGE, image, { Authorization: LOCAL_TOKEN }),
      await postJson(server.url, IMAGE, image, { Authorization: `Basic ${LOCAL_TOKEN}` }),
      await postJson(server.url, CHAT, chat, bearer(WRONG_TOKEN)),
      await raw(server.url, '/local/text/v1/models', { headers: bearer(WRONG_TOKEN) }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toContain('missing or wrong Authorization: Bearer token');
      for (const secret of SECRETS) expect(res.text).not.toContain(secret);
    }
  });

  it('accepts exactly the token, whatever the case of the scheme', async () => {
    expect((await postJson(server.url, IMAGE, image, bearer(LOCAL_TOKEN))).status).toBe(200);
    expect((await postJson(server.url, IMAGE, image, { Authorization: `bearer ${LOCAL_TOKEN}` })).status).toBe(200);
    const models = await raw(server.url, '/local/text/v1/models', { headers: bearer(LOCAL_TOKEN) });
    expect(models.status).toBe(200);
    const model = (JSON.parse(models.text) as { data: { id: string }[] }).data[0]!.id;
    expect((await postJson(server.url, CHAT, { ...chat, model }, bearer(LOCAL_TOKEN))).status).toBe(200);
  });

  it('says a token is required in /api/info without revealing it', async () => {
    const res = await raw(server.url, '/api/info');
    const info = JSON.parse(res.text) as { localEngines: { tokenRequired: boolean }; forwarder: { image: boolean; text: boolean } };
    expect(info.localEngines.tokenRequired).toBe(true);
    expect(info.forwarder).toMatchObject({ image: true, text: false });
    for (const secret of SECRETS) expect(res.text).not.toContain(secret);
  });
});

describe('tokens never reach the output', () => {
  it('after good and bad requests carrying tokens in headers, bodies, paths and queries', async () => {
    await postJson(server.url, `${IMAGE}?token=${LOCAL_TOKEN}&key=${UPSTREAM_TOKEN}`, image, bearer(LOCAL_TOKEN));
    await postJson(server.url, `/local/image/generate/${LOCAL_TOKEN}`, image, bearer(LOCAL_TOKEN));
    await postJson(server.url, `/local/image/generate/${WRONG_TOKEN}`, image, bearer(LOCAL_TOKEN));
    await raw(server.url, `/forward/${UPSTREAM_TOKEN}`);
    await raw(server.url, `/${WRONG_TOKEN}`, { headers: bearer(WRONG_TOKEN) });
    await postJson(server.url, IMAGE, { prompt: LOCAL_TOKEN, sampler: UPSTREAM_TOKEN }, bearer(LOCAL_TOKEN));
    await postJson(server.url, CHAT, `{"model": "${UPSTREAM_TOKEN}"`, bearer(LOCAL_TOKEN));
    // The forwarder is guarded by the local token too; with it, the upstream (down) gets a 502
    // naming the host, never the token it would have sent.
    expect((await postJson(server.url, '/forward/image/generate/sdxl', image, bearer(WRONG_TOKEN))).status).toBe(401);
    const forwarded = await postJson(server.url, '/forward/image/generate/sdxl', image, bearer(LOCAL_TOKEN));
    expect(forwarded.status).toBe(502);
    expect(forwarded.text).toMatch(/^upstream: cannot reach 127\.0\.0\.1:\d+/);
    for (const secret of SECRETS) expect(forwarded.text).not.toContain(secret);

    await server.waitForOutput(/POST \/forward\/image\/generate\/sdxl 502/);
    const { output } = await server.stop();
    expect(output).toMatch(/Atelier listening on/);
    expect(output).toMatch(/SIGTERM: stopping/);
    for (const secret of SECRETS) expect(output).not.toContain(secret);
  });
});
