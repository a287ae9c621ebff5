/**
 * Settings → Image backend with a pool: more servers after the base URL, each with a label, an
 * address and its own credential (stored with the other credentials, under the row's id), handed
 * to the worker as `baseUrls` and credentials by position; a row that cannot be used stops the run
 * naming the server. Only a backend whose description sets `pool` takes servers.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, saveSettings, settingsProblems, settingsSecrets, workerSettingsFor, type Settings } from '../../src/settings/settings';
import { backendRules, type BackendSlot, type ImageBackendSettings } from '../../src/settings/backend-settings';
import { newRowId, serverCredentialKey } from '../../src/settings/backend-pool';
import { memoryStorage } from './memory-storage';

const ORIGIN = 'http://127.0.0.1:8787';
const fields = { baseUrl: 'http://127.0.0.1:8188', checkpoints: {}, refiner: '', model: '', assets: [] };
const pool = (kind: 'comfyui' | 'openai', extra: object = {}): BackendSlot => ({
  kind,
  fields: { [kind]: { ...fields, label: 'desk', servers: [{ id: 'r1', label: 'box', url: 'http://10.0.0.7:8188/' }, { id: 'r2', label: '', url: 'http://10.0.0.8:8188' }], ...extra } },
});
const withBackends = (imageBackends: ImageBackendSettings, extra: Partial<Settings> = {}): Settings => ({ ...DEFAULT_SETTINGS, mode: 'local', imageBackends, ...extra });

describe('a pool in the settings', () => {
  it('hands the worker every server, labelled, with each one’s own credential by position', () => {
    const s = withBackends({ all: pool('comfyui'), engines: {} }, { backendCredentials: { 'all:comfyui': 'first-secret', [serverCredentialKey('all:comfyui', 'r2')]: 'third-secret' } });
    expect(settingsProblems(s, null, { image: true, text: false }, backendRules)).toEqual([]);
    const worker = workerSettingsFor(s, ORIGIN, null, backendRules, () => ({ checkpoints: ['only-on-desk.safetensors'] }));
    expect(worker.imageBackends?.sdxl).toEqual({
      kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188',
      baseUrls: [{ label: 'desk', url: 'http://127.0.0.1:8188' }, { label: 'box', url: 'http://10.0.0.7:8188' }, { label: 'server 3', url: 'http://10.0.0.8:8188' }],
    });
    expect(worker.backendCredentials?.sd).toEqual(['first-secret', undefined, 'third-secret']);
    // The first server's list would refuse files the others hold: placement checks a pool, server by server.
    expect(worker.backendNames).toBeUndefined();
    expect(settingsSecrets(s, ORIGIN, backendRules)).toEqual(expect.arrayContaining(['third-secret', 'http://10.0.0.7:8188/']));
  });

  it('stores the rows with the backend settings and their credentials with the others, never together', () => {
    const { storage, local, session } = memoryStorage();
    saveSettings(withBackends({ all: pool('comfyui'), engines: {} }, { backendCredentials: { [serverCredentialKey('all:comfyui', 'r1')]: 'row-secret' } }), storage, backendRules);
    expect([...local.values()].join()).not.toContain('row-secret');
    expect([...session.values()].join()).toContain('row-secret');
    const back = backendRules.read(storage, false);
    expect(back.imageBackends.all.fields.comfyui?.servers?.map((r) => r.label)).toEqual(['box', '']);
    expect(back.backendCredentials[serverCredentialKey('all:comfyui', 'r1')]).toBe('row-secret');
  });

  it('stops the run on a server without a usable URL or a label used twice, naming the server', () => {
    const bad = withBackends({ all: pool('comfyui', { servers: [{ id: 'r1', label: 'desk', url: '' }, { id: 'r2', label: 'x', url: 'ftp://h' }] }), engines: {} });
    const problems = settingsProblems(bad, null, { image: true, text: false }, backendRules);
    expect(problems).toEqual(expect.arrayContaining([
      'the URL of ComfyUI server 2 (desk) is empty: correct it or remove the server in Settings (Image backend, all engines)',
      expect.stringMatching(/^the URL of ComfyUI server 3 \(x\) must start with https:\/\//),
      "two ComfyUI servers are labelled 'desk': give each its own label in Settings (Image backend, all engines)",
    ]));
  });

  it('a backend that takes one server ignores stored rows', () => {
    const worker = workerSettingsFor(withBackends({ all: pool('openai'), engines: {} }), ORIGIN, null, backendRules);
    expect(worker.imageBackends?.sdxl?.baseUrls).toBeUndefined();
  });

  it('gives each new row an id of its own', () => {
    const values = [0.5, 0.5, 0.25];
    const id = newRowId([{ id: Math.floor(0.5 * 36 ** 8).toString(36), label: '', url: '' }], () => values.shift()!);
    expect(id).toBe(Math.floor(0.25 * 36 ** 8).toString(36));
  });
});
