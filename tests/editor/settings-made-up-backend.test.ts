/**
 * A backend registered through the registry, and nothing else, is a whole Settings backend: it
 * is stored and read back, its names (a model per engine) reach the worker, and what it needs
 * (its required key, the server's route when a browser cannot call it) stops a run, saying where
 * to fix it. The registry here is the real one plus the made-up backend of tests/backends/.
 */
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, settingsProblems, workerSettingsFor, type Settings } from '../../src/settings/settings';
import { backendRules, type ImageBackendSettings } from '../../src/settings/backend-settings';
import { memoryStorage } from './memory-storage';
import type * as RealRegistry from '../../api/backends/registry';

vi.mock('../../api/backends/registry', async (importOriginal) => {
  const real = await importOriginal<typeof RealRegistry>();
  const { defineBackends, registryOf } = await import('../../api/backends/describe');
  const { madeUpDescription } = await import('../backends/made-up/describe');
  const BACKENDS = defineBackends([...real.BACKENDS, { description: madeUpDescription, load: () => Promise.reject(new Error('not built here')) }]);
  const derived = registryOf<string>(BACKENDS);
  return {
    BACKENDS, BACKEND_KINDS: derived.kinds, BACKEND_DESCRIPTION: derived.description, BACKEND_LABEL: derived.label,
    DEFAULT_BASE_URL: derived.defaultBaseUrl, isBackendKind: derived.isKind,
  };
});

const ORIGIN = 'http://127.0.0.1:8787';
const fields = { baseUrl: '', checkpoints: {}, refiner: '', model: '', assets: [], models: { sdxl: 'made-up/sdxl-lightning' } };
const madeUp = { all: { kind: 'made-up', fields: { 'made-up': fields } }, engines: {} } as unknown as ImageBackendSettings;
const withBackends = (imageBackends: ImageBackendSettings, extra: Partial<Settings> = {}): Settings => ({ ...DEFAULT_SETTINGS, imageBackends, ...extra });

describe('a backend added to the registry, in Settings', () => {
  it('is stored and read back with its per-engine model', () => {
    const { storage } = memoryStorage();
    backendRules.save({ imageBackends: madeUp, backendCredentials: { 'all:made-up': 'key-1' } }, storage, false);
    expect(backendRules.read(storage, false)).toEqual({ imageBackends: madeUp, backendCredentials: { 'all:made-up': 'key-1' } });
  });

  it('says before a run that it needs its API key and the route through the server', () => {
    expect(settingsProblems(withBackends(madeUp, { mode: 'local' }), null, undefined, backendRules)).toEqual([
      "Made-up Cloud cannot be called from this browser (it sends no CORS headers): choose another backend in Settings (Image backend, all engines), or the route through this server with ATELIER_IMAGE_BACKEND=made-up",
      'Made-up Cloud needs its API key: enter it in Settings (Image backend, all engines)',
    ]);
  });

  it('hands the worker its usual address, the key and each engine its own model', () => {
    const resolved = backendRules.resolve({ imageBackends: madeUp, backendCredentials: { 'all:made-up': 'key-1' } });
    expect(resolved.backends).toEqual({
      sdxl: { kind: 'made-up', baseUrl: 'https://images.made-up.invalid', names: { model: 'made-up/sdxl-lightning' } },
      sd: { kind: 'made-up', baseUrl: 'https://images.made-up.invalid' },
      'controlnet-sdxl': { kind: 'made-up', baseUrl: 'https://images.made-up.invalid' },
    });
    expect(resolved.credentials.sdxl).toBe('key-1');
    expect(resolved.problems).toEqual([expect.stringContaining('cannot be called from this browser')]);
    expect(workerSettingsFor(withBackends(madeUp, { mode: 'forward' }), ORIGIN, null, backendRules)).not.toHaveProperty('imageBackends');
  });
});
