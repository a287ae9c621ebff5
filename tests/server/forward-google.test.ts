/**
 * The forwarder on Google's Gemini API, started as a person would (ATELIER_IMAGE_BACKEND=google,
 * ATELIER_BACKEND_URL, the key in ATELIER_BACKEND_TOKEN): the browser speaks the service's contract,
 * the server sends the key in x-goog-api-key itself, and a mode Gemini cannot do is a 400 naming
 * the field with nothing sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGeminiDouble, type GeminiDouble } from '../helpers/doubles/gemini';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { postJson } from './http';

let gemini: GeminiDouble;
let server: ServerProcess;
beforeAll(async () => {
  gemini = await startGeminiDouble();
  server = await startServer({ ATELIER_IMAGE_BACKEND: 'google', ATELIER_BACKEND_URL: gemini.url, ATELIER_BACKEND_TOKEN: gemini.apiKey });
});
afterAll(async () => {
  await server.stop();
  await gemini.close();
});

describe('the forwarder on the Google Gemini API', () => {
  it('translates the request, sends the key in its header, and answers in the service\'s shape', async () => {
    const res = await postJson(server.url, '/forward/image/generate/sdxl', { prompt: 'a harbour at dawn', width: 1344, height: 768 });
    expect(res.status).toBe(200);
    const body = JSON.parse(res.text) as { images: { image_b64: string }[] };
    expect(body.images).toHaveLength(1);
    expect(gemini.received.at(-1)).toMatchObject({ path: '/v1beta/models/gemini-2.5-flash-image:generateContent', apiKey: gemini.apiKey, query: '' });
    expect(res.text).not.toContain(gemini.apiKey);
  });

  it('refuses ControlNet with its reason, and sends nothing', async () => {
    const before = gemini.received.length;
    const res = await postJson(server.url, '/forward/image/generate/controlnet-sdxl', { prompt: 'x', controlnet: 'svc:canny_sdxl', controlnet_image: '/9j/4AAQSkZJRgABAQ==' });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/controlnet: Google Gemini API cannot take this request/);
    expect(gemini.received.length).toBe(before);
  });
});
