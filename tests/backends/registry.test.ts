/**
 * Adding a backend is its folder and one registry line: a backend that exists only in the tests
 * (tests/backends/made-up/), added to a list as the registry adds its own, appears in the
 * Settings' choices, the CLI's help and flags, the server's accepted kinds and settings table, and
 * the docs, with no other edit; its code is loaded only when a backend of its kind is built.
 */
import { describe, expect, it, vi } from 'vitest';
import { defineBackends, listsFiles, needsCheckpoint, needsWebSocket, type BackendEntry } from '../../api/backends/describe';
import { backendList, namesTable } from '../../api/backends/docs';
import { createBackend } from '../../api/backends/index';
import { BACKENDS, BACKEND_KINDS, BACKEND_LABEL, DEFAULT_BASE_URL } from '../../api/backends/registry';
import { usageText } from '../../cli/args';
import { checkCredentials, resolveBackends } from '../../cli/backends';
import { backendSettings, loadConfig } from '../../server/config';
import { backendChoicesFor } from '../../src/settings/backend-choices';
import { madeUpDescription } from './made-up/describe';

const load = vi.fn(() => import('./made-up/index').then((m) => m.createMadeUpBackend));
// The one line a new backend adds.
const WITH_MADE_UP: readonly BackendEntry[] = defineBackends([...BACKENDS, { description: madeUpDescription, load }]);
const noFile = { HOME: '/nonexistent-atelier-home' };

describe('the backend registry', () => {
  it('names each backend once, the service first, and the kinds, labels and addresses come from the descriptions', () => {
    expect(BACKEND_KINDS).toEqual(['service', 'comfyui', 'a1111', 'openai', 'fal', 'replicate', 'google']);
    expect(BACKEND_LABEL.comfyui).toBe('ComfyUI');
    expect(DEFAULT_BASE_URL.a1111).toBe('http://127.0.0.1:7860');
    expect(() => defineBackends([...BACKENDS, BACKENDS[1]!])).toThrow(/'comfyui' is registered twice/);
    expect(() => defineBackends([BACKENDS[1]!])).toThrow(/first backend must be the service/);
    expect(() => defineBackends([BACKENDS[0]!, { ...BACKENDS[1]!, description: { ...BACKENDS[1]!.description, kind: 'Comfy UI' } }])).toThrow(/lower case/);
  });

  it('loads each real backend on first use; only the hosted providers quote a price (the others keep price units)', async () => {
    const quoting: string[] = [];
    for (const kind of BACKEND_KINDS) {
      const backend = await createBackend({ config: { kind, baseUrl: DEFAULT_BASE_URL[kind] } });
      expect([backend.kind, backend.label]).toEqual([kind, BACKEND_LABEL[kind]]);
      if (backend.price !== undefined) quoting.push(kind);
    }
    expect(quoting).toEqual(['fal', 'replicate', 'google']);
  });

  it('what Node loads for a backend and what it needs set come from its description, not its name', () => {
    expect(needsWebSocket(BACKENDS, ['service', 'a1111', 'openai'])).toBe(false);
    expect(needsWebSocket(BACKENDS, ['a1111', 'comfyui'])).toBe(true);
    const socketed = defineBackends([...BACKENDS, { description: { ...madeUpDescription, webSocket: true }, load }]);
    expect(needsWebSocket(socketed, ['made-up'])).toBe(true);
    expect(needsWebSocket(WITH_MADE_UP, ['made-up', 'toString'])).toBe(false);
    expect(BACKENDS.filter((b) => needsCheckpoint(b.description)).map((b) => b.description.kind)).toEqual(['comfyui']);
    // Asked for their lists before a run: those whose names are files on their disk.
    expect(WITH_MADE_UP.filter((b) => listsFiles(b.description)).map((b) => b.description.kind)).toEqual(['comfyui', 'a1111']);
  });

  it("a registered backend is one of the Settings' choices, by its label", () => {
    expect(backendChoicesFor(WITH_MADE_UP, 'direct')).toContainEqual({ kind: 'made-up', label: 'Made-up Cloud' });
    expect(backendChoicesFor(BACKENDS, 'direct').map((c) => c.kind)).not.toContain('made-up');
  });

  it("is in the CLI's --help, with its summary, address, credential and the name flags it uses", () => {
    const help = usageText(WITH_MADE_UP);
    expect(help).toMatch(/--image-backend KIND[\s\S]*comfyui,\s+a1111,\s+openai,\s+fal,\s+replicate,\s+google,\s+made-up\./);
    expect(help).toMatch(/made-up {13}a hosted image API that exists only in the tests\. At[\s\S]*https:\/\/images\.made-up\.invalid; ATELIER_BACKEND_TOKEN: API key\./);
    expect(help).toMatch(/--image-model \[ENGINE=\]NAME[\s\S]*Used by OpenAI Images \(optional, default[\s\S]*gpt-image-1\), fal\s+\(optional\),\s+Replicate\s+\(optional\),\s+Google\s+Gemini\s+API\s+\(optional,\s+default[\s\S]*gemini-2\.5-flash-image\),\s+Made-up\s+Cloud\s+\(recommended\)\./);
    expect(usageText(BACKENDS)).not.toContain('made-up');
  });

  it("the CLI's --image-backend takes it, at its usual address, with a model per engine", async () => {
    const routed = await resolveBackends({ kind: 'made-up', checkpoints: [], assets: [], model: ['sdxl=made-up/sdxl-lightning', 'sd=made-up/sd15'] }, '/', WITH_MADE_UP);
    expect(routed).toEqual({
      sdxl: { kind: 'made-up', baseUrl: 'https://images.made-up.invalid', names: { model: 'made-up/sdxl-lightning' } },
      sd: { kind: 'made-up', baseUrl: 'https://images.made-up.invalid', names: { model: 'made-up/sd15' } },
      'controlnet-sdxl': { kind: 'made-up', baseUrl: 'https://images.made-up.invalid' },
    });
    await expect(resolveBackends({ kind: 'made-up', checkpoints: [], assets: [] }, '/')).rejects.toThrow(/--image-backend must be one of service, comfyui, a1111, openai, fal, replicate, google$/);
  });

  it('its required key is asked for before a run starts, by the CLI and by the server', () => {
    const routed = { sdxl: { kind: 'made-up' as never, baseUrl: 'https://images.made-up.invalid' } };
    expect(() => checkCredentials(routed, {}, WITH_MADE_UP)).toThrow('the sdxl engine goes to Made-up Cloud, which needs its API key: set ATELIER_BACKEND_TOKEN');
    expect(() => checkCredentials(routed, { ATELIER_BACKEND_TOKEN: 'key-1' }, WITH_MADE_UP)).not.toThrow();
    expect(() => checkCredentials({ sdxl: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188' } }, {}, WITH_MADE_UP)).not.toThrow();
  });

  it("the server's ATELIER_IMAGE_BACKEND takes it, and its settings table names it", () => {
    expect(() => loadConfig({ ...noFile, ATELIER_IMAGE_BACKEND: 'made-up' }, WITH_MADE_UP)).toThrow(`the sdxl engine goes to Made-up Cloud, which needs its API key: set ATELIER_BACKEND_TOKEN or the config file's "backendToken"`);
    const { forwarder } = loadConfig({ ...noFile, ATELIER_IMAGE_BACKEND: 'made-up', ATELIER_BACKEND_TOKEN: 'key-1' }, WITH_MADE_UP).config;
    expect(forwarder.imageBackends.sdxl).toEqual({ kind: 'made-up', baseUrl: 'https://images.made-up.invalid' });
    expect(() => loadConfig({ ...noFile, ATELIER_IMAGE_BACKEND: 'made-up' })).toThrow(/is not a backend; use one of comfyui, a1111, openai, fal, replicate, google$/);
    expect(() => loadConfig({ ...noFile, ATELIER_BACKEND_URL: 'http://x.invalid' }, WITH_MADE_UP)).toThrow('needs ATELIER_IMAGE_BACKEND (comfyui, a1111, openai, fal, replicate, google or made-up)');
    const [choose, url, token] = backendSettings(WITH_MADE_UP);
    expect(choose?.meaning).toContain('openai (OpenAI Images), fal (fal), replicate (Replicate), google (Google Gemini API) or made-up (Made-up Cloud).');
    expect(url?.meaning).toContain('Made-up Cloud https://images.made-up.invalid');
    expect(token?.meaning).toContain('Made-up Cloud: API key');
  });

  it('the docs list it and give it a column of the names table', () => {
    expect(backendList(WITH_MADE_UP)).toContain('| Made-up Cloud | `made-up` | a hosted image API that exists only in the tests | https://images.made-up.invalid | API key, required | no: it sends no CORS headers |');
    const table = namesTable(WITH_MADE_UP).split('\n');
    expect(table[0]).toBe('| setting | meaning | ComfyUI | AUTOMATIC1111 / Forge | OpenAI Images | fal | Replicate | Google Gemini API | Made-up Cloud |');
    expect(table.find((row) => row.startsWith('| `model` |'))).toMatch(/\| recommended, per engine, defaults sdxl `made-up\/sdxl-turbo` \|$/);
    expect(table.find((row) => row.startsWith('| `checkpoint` |'))).toMatch(/\| not used \|$/);
  });

  it('its code is loaded only when a backend of its kind is built, with the settings it was given', async () => {
    expect(load).not.toHaveBeenCalled();
    const backend = await createBackend({ config: { kind: 'made-up' as never, baseUrl: 'https://images.made-up.invalid', names: { model: 'm' } }, credential: 'key-1' }, {}, WITH_MADE_UP);
    expect(load).toHaveBeenCalledTimes(1);
    expect(backend.label).toBe('Made-up Cloud');
    const { built } = await import('./made-up/index');
    expect(built.at(-1)).toMatchObject({ baseUrl: 'https://images.made-up.invalid', token: 'key-1', names: { model: 'm' } });
    await expect(createBackend({ config: { kind: 'made-up' as never, baseUrl: 'https://x.invalid' } })).rejects.toThrow('the made-up backend is not available in this build');
  });
});
