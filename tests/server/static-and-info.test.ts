/**
 * Contract: `/` serves the built editor with the right types and caching and nothing outside
 * dist/, or, before the editor is built, a page saying what is running; /api/info and the engine
 * descriptions tell the editor and a person where things are, and that the engines are stand-ins.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANDING_CSP } from '../../server/routes/landing';
import { EDITOR_CSP } from '../../server/routes/static';
import { startServer, type ServerProcess } from '../helpers/server-process';
import { raw } from './http';

const root = mkdtempSync(join(tmpdir(), 'atelier-static-'));
const dist = join(root, 'dist');
const INDEX = '<!doctype html><title>Atelier editor</title><script type="module" src="/assets/index-Bq3xY7kP.js"></script>';

let built: ServerProcess;
let unbuilt: ServerProcess;

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), INDEX);
  writeFileSync(join(dist, 'assets', 'index-Bq3xY7kP.js'), 'console.log("editor")');
  writeFileSync(join(dist, 'assets', 'style-9aZ0c1Dd.css'), 'body{}');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, 'secret.txt'), 'outside dist');
  symlinkSync(join(root, 'secret.txt'), join(dist, 'linked.txt'));
  [built, unbuilt] = await Promise.all([startServer({ ATELIER_DIST_DIR: dist }), startServer()]);
});
afterAll(async () => {
  await Promise.all([built.stop(), unbuilt.stop()]);
});

describe('the built editor', () => {
  it('serves index.html at / and for the editor\'s own paths, revalidated every time', async () => {
    for (const path of ['/', '/index.html', '/workflows/mine']) {
      const res = await raw(built.url, path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toBe(INDEX);
    }
  });
  it('serves hashed assets with their content type, cached for good', async () => {
    const js = await raw(built.url, '/assets/index-Bq3xY7kP.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    const css = await raw(built.url, '/assets/style-9aZ0c1Dd.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const svg = await raw(built.url, '/favicon.svg');
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['cache-control']).toBe('no-cache');
    const head = await raw(built.url, '/assets/index-Bq3xY7kP.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String('console.log("editor")'.length));
    expect(head.body.length).toBe(0);
  });
  it('sends the Content-Security-Policy with the page and every file of the editor (its workers get it from their script)', async () => {
    for (const path of ['/', '/workflows/mine', '/assets/index-Bq3xY7kP.js', '/favicon.svg']) {
      const policy = String((await raw(built.url, path)).headers['content-security-policy']);
      expect(policy, path).toBe(EDITOR_CSP);
    }
    const directives = new Map(EDITOR_CSP.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(Object.fromEntries(directives)).toMatchObject({
      'script-src': "'self'", 'worker-src': "'self'", 'object-src': "'none'", 'base-uri': "'none'", 'frame-ancestors': "'none'",
      'img-src': "'self' blob: data:", 'connect-src': "'self' blob: http: https: ws: wss:",
    });
  });
  it('answers a missing file with 404, not the editor', async () => {
    const res = await raw(built.url, '/assets/missing-00000000.js');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });
  it('never serves a file outside dist/', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/linked.txt', '/%2e%2e%2f%2e%2e%2fpackage.json']) {
      const res = await raw(built.url, path);
      expect(res.text, path).not.toContain('outside dist');
      expect(res.text, path).not.toContain('"name": "atelier"');
      expect(res.status, path).toBeGreaterThanOrEqual(400);
    }
  });
});

describe('before the editor is built', () => {
  it('shows a page saying what runs where', async () => {
    const res = await raw(unbuilt.url, '/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain(`${unbuilt.url}/local/image`);
    expect(res.text).toContain(`${unbuilt.url}/local/text`);
    expect(res.text).toContain('stand-in');
    expect((await raw(unbuilt.url, '/assets/x-12345678.js')).status).toBe(404);
  });
  it('runs no script, and allows its one style element by its hash', async () => {
    const res = await raw(unbuilt.url, '/');
    const style = /<style>([^<]*)<\/style>/.exec(res.text)![1]!;
    expect(res.headers['content-security-policy']).toBe(LANDING_CSP);
    expect(LANDING_CSP).toContain("default-src 'none'");
    expect(LANDING_CSP).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(res.text).not.toMatch(/<script|\son\w+=/i);
  });
});

describe('descriptions and /api/info', () => {
  it('GET /local/image says plainly it is a deterministic stand-in, not a diffusion model', async () => {
    const res = await raw(unbuilt.url, '/local/image');
    expect(res.status).toBe(200);
    const info = JSON.parse(res.text) as { standIn: boolean; description: string; endpoints: { path: string }[] };
    expect(info.standIn).toBe(true);
    expect(info.description).toContain('deterministic local stand-in, not a diffusion model');
    expect(info.endpoints.map((e) => e.path)).toEqual(['/local/image/generate/sdxl', '/local/image/generate/sd', '/local/image/generate/controlnet-sdxl']);
  });
  it('GET /local/text describes the text engine and its models', async () => {
    const info = JSON.parse((await raw(unbuilt.url, '/local/text')).text) as { standIn: boolean; models: string[]; openaiCompatibleBaseUrl: string };
    expect(info.standIn).toBe(true);
    expect(info.models.length).toBeGreaterThan(0);
    expect(info.openaiCompatibleBaseUrl).toBe(`${unbuilt.url}/local/text/v1`);
  });
  it('/api/info gives the editor the base URLs, models and what the forwarder offers', async () => {
    const res = await raw(unbuilt.url, '/api/info', { headers: { Host: `localhost:${unbuilt.port}` } });
    expect(res.headers['content-type']).toBe('application/json');
    const info = JSON.parse(res.text) as Record<string, unknown>;
    const models = (JSON.parse((await raw(unbuilt.url, '/local/text/v1/models')).text) as { data: { id: string }[] }).data.map((m) => m.id);
    expect(info).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/) as unknown,
      localEngines: {
        // Built from the name the browser used, so the editor stays same-origin.
        imageBaseUrl: `http://localhost:${unbuilt.port}/local/image`,
        textBaseUrl: `http://localhost:${unbuilt.port}/local/text`,
        models,
        tokenRequired: false,
        standIn: true,
      },
      forwarder: {
        image: false,
        text: false,
        chat: 'local',
        imageBaseUrl: `http://localhost:${unbuilt.port}/forward/image`,
        textBaseUrl: `http://localhost:${unbuilt.port}/forward/text`,
        imageBackends: {},
      },
    });
  });
});
