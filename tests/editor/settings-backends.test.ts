/**
 * Settings → Image backend: stored under keys of their own (v1 settings keep working), the
 * credentials kept like tokens and tied to the backend they were entered for, what the worker is
 * handed on each route, and what stops a run, each saying where to fix it.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, loadSettings, saveSettings, settingsProblems, settingsSecrets, workerSettingsFor, type Settings } from '../../src/settings/settings';
import { backendRules, type BackendSlot, type ImageBackendSettings } from '../../src/settings/backend-settings';
import { NO_IMAGE_BACKENDS } from '../../src/settings/backend-types';
import { forwardedBackends, type ServerInfo } from '../../src/settings/server-info';
import { storeLink } from '../../src/run/store-link';
import { createSettingsStore } from '../../src/settings/settings-store';
import { createEditorStore } from '../../src/store/editor-store';
import { starterWorkflow } from '../../src/store/starter';
import { memoryStorage } from './memory-storage';

const ORIGIN = 'http://127.0.0.1:8787';
const comfy = (fields: Partial<NonNullable<BackendSlot['fields']['comfyui']>> = {}): BackendSlot => ({
  kind: 'comfyui',
  fields: { comfyui: { baseUrl: '', checkpoints: {}, refiner: '', model: '', assets: [], ...fields } },
});
/** What the rules read back of backends stored as `raw`. */
function readBackends(raw: unknown): ImageBackendSettings {
  const { storage, local } = memoryStorage();
  local.set('atelier.image-backends.v1', JSON.stringify(raw));
  return backendRules.read(storage, false).imageBackends;
}
const withBackends = (imageBackends: ImageBackendSettings, extra: Partial<Settings> = {}): Settings => ({ ...DEFAULT_SETTINGS, imageBackends, ...extra });

describe('stored apart, old settings keep working', () => {
  it('reads v1 settings saved before backends existed, with every engine on the service’s API', () => {
    const { storage, local, session } = memoryStorage();
    local.set('atelier.settings.v1', JSON.stringify({ mode: 'direct', directImageBaseUrl: 'https://i.example', directTextBaseUrl: 'https://t.example', chatModel: 'm', concurrency: 2 }));
    session.set('atelier.tokens.v1', JSON.stringify({ directToken: 'old-token' }));
    const loaded = loadSettings(storage, backendRules);
    expect(loaded).toMatchObject({ mode: 'direct', directToken: 'old-token', imageBackends: NO_IMAGE_BACKENDS, backendCredentials: {} });
    expect(workerSettingsFor(loaded, ORIGIN, null, backendRules)).toEqual({ imageBaseUrl: 'https://i.example', textBaseUrl: 'https://t.example', token: 'old-token', chatModel: 'm', concurrency: 2, maxFanOut: 64 });
  });

  it('keeps the backends under their own key, which a build that rewrites v1 leaves alone', () => {
    const { storage, local } = memoryStorage();
    saveSettings(withBackends({ all: comfy({ checkpoints: { sdxl: 'base.safetensors' } }), engines: {} }), storage, backendRules);
    const v1 = JSON.parse(local.get('atelier.settings.v1')!) as Record<string, unknown>;
    expect(Object.keys(v1)).not.toContain('imageBackends');
    // An older build writes v1 as it knows it.
    local.set('atelier.settings.v1', JSON.stringify({ mode: 'local', chatModel: 'x', concurrency: 4 }));
    expect(loadSettings(storage, backendRules).imageBackends.all).toEqual(comfy({ checkpoints: { sdxl: 'base.safetensors' } }));
  });

  it('drops what storage holds in the wrong shape, never trusting it', () => {
    expect(readBackends({ all: { kind: 'evil', fields: {} } })).toEqual(NO_IMAGE_BACKENDS);
    expect(readBackends({ all: { kind: 'a1111', fields: { a1111: { baseUrl: 7, checkpoints: { sdxl: 'x', nope: 'y' }, assets: [{ name: 'svc:canny_sdxl', file: 3 }, 'row'] } } }, engines: { sd: 'x', gpu: {} } }))
      .toEqual({ all: { kind: 'a1111', fields: { a1111: { baseUrl: '', checkpoints: { sdxl: 'x' }, refiner: '', model: '', assets: [{ name: 'svc:canny_sdxl', file: '' }] } } }, engines: {} });
  });

  it('keeps credentials for the session unless tokens are remembered, never beside the backend settings', () => {
    const { storage, local, session } = memoryStorage();
    const s = withBackends({ all: { kind: 'openai', fields: {} }, engines: {} }, { backendCredentials: { 'all:openai': 'sk-secret-1' } });
    saveSettings(s, storage, backendRules);
    expect([...local.values()].join()).not.toContain('sk-secret-1');
    expect(session.get('atelier.backend-credentials.v1')).toBe(JSON.stringify({ 'all:openai': 'sk-secret-1' }));
    expect(loadSettings(storage, backendRules).backendCredentials).toEqual({ 'all:openai': 'sk-secret-1' });

    saveSettings({ ...s, rememberTokens: true }, storage, backendRules);
    expect([...session.values()].join()).not.toContain('sk-secret-1');
    expect(local.get('atelier.backend-credentials.v1')).toContain('sk-secret-1');
    expect(local.get('atelier.image-backends.v1')).not.toContain('sk-secret-1');

    saveSettings({ ...s, backendCredentials: {} }, storage, backendRules);
    expect([...local.values(), ...session.values()].join()).not.toContain('sk-secret-1');
  });
});

describe('what the worker is handed', () => {
  it('sends every engine to the backend chosen for all, at its usual address when none is entered, each engine with its checkpoint', () => {
    const s = withBackends({ all: comfy({ checkpoints: { sdxl: ' base.safetensors ', sd: 'v15.safetensors' }, refiner: 'refiner.safetensors', assets: [{ name: 'svc:canny_sdxl', file: 'canny.safetensors' }, { name: '', file: '' }] }), engines: {} });
    expect(workerSettingsFor(s, ORIGIN, null, backendRules)).toEqual({
      imageBaseUrl: `${ORIGIN}/local/image`, textBaseUrl: `${ORIGIN}/local/text`, chatModel: DEFAULT_SETTINGS.chatModel, concurrency: 4, maxFanOut: 64,
      imageBackends: {
        sdxl: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188', names: { checkpoint: 'base.safetensors', refiner: 'refiner.safetensors', assets: { 'svc:canny_sdxl': 'canny.safetensors' } } },
        sd: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188', names: { checkpoint: 'v15.safetensors', refiner: 'refiner.safetensors', assets: { 'svc:canny_sdxl': 'canny.safetensors' } } },
        'controlnet-sdxl': { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188', names: { refiner: 'refiner.safetensors', assets: { 'svc:canny_sdxl': 'canny.safetensors' } } },
      },
    });
  });

  it('hands the names each backend listed, asked with its own URL and credential, so the run checks them; none when not asked', () => {
    const s = withBackends({ all: comfy({ checkpoints: { sdxl: 'sd_xl_base_1.0.ckpt' } }), engines: { sd: { kind: 'service', fields: {} } } }, { backendCredentials: { 'all:comfyui': 'proxy-tok' } });
    const asked: string[] = [];
    const handed = workerSettingsFor(s, ORIGIN, null, backendRules, (config, credential) => {
      asked.push(`${config.kind} ${config.baseUrl} ${credential}`);
      return { checkpoints: ['sd_xl_base_1.0.safetensors'] };
    });
    expect(handed.backendNames).toEqual({ sdxl: { checkpoints: ['sd_xl_base_1.0.safetensors'] }, 'controlnet-sdxl': { checkpoints: ['sd_xl_base_1.0.safetensors'] } });
    expect(asked).toEqual(['comfyui http://127.0.0.1:8188 proxy-tok', 'comfyui http://127.0.0.1:8188 proxy-tok']);
    expect(workerSettingsFor(s, ORIGIN, null, backendRules, () => undefined)).not.toHaveProperty('backendNames');
  });

  it('lets an engine go its own way, to another backend or to the service’s API', () => {
    const s = withBackends(
      { all: comfy({ baseUrl: 'http://gpu.lan:8188/' }), engines: { sd: { kind: 'service', fields: {} }, 'controlnet-sdxl': { kind: 'openai', fields: { openai: { baseUrl: '', checkpoints: {}, refiner: '', model: 'gpt-image-1', assets: [] } } } } },
      { backendCredentials: { 'all:comfyui': 'proxy-tok', 'controlnet-sdxl:openai': 'sk-key' } },
    );
    const handed = workerSettingsFor(s, ORIGIN, null, backendRules);
    expect(handed.imageBackends).toEqual({
      sdxl: { kind: 'comfyui', baseUrl: 'http://gpu.lan:8188' },
      'controlnet-sdxl': { kind: 'openai', baseUrl: 'https://api.openai.com', names: { model: 'gpt-image-1' } },
    });
    expect(handed.backendCredentials).toEqual({ sdxl: 'proxy-tok', 'controlnet-sdxl': 'sk-key' });
  });

  it('never hands a credential to a backend other than the one it was entered for', () => {
    // The OpenAI key was entered for all engines; then ComfyUI was chosen there.
    const s = withBackends({ all: comfy(), engines: {} }, { backendCredentials: { 'all:openai': 'sk-key' } });
    expect(workerSettingsFor(s, ORIGIN, null, backendRules)).not.toHaveProperty('backendCredentials');
    expect(JSON.stringify(workerSettingsFor(s, ORIGIN, null, backendRules))).not.toContain('sk-key');
  });

  it('through this server, sends the browser’s backends nowhere and reviews with the server’s', () => {
    const s = withBackends({ all: comfy(), engines: {} }, { mode: 'forward', backendCredentials: { 'all:comfyui': 'tok' } });
    const info: ServerInfo = { forwarder: { image: true, text: true, imageBackends: {
      sdxl: { kind: 'a1111', label: 'AUTOMATIC1111 / Forge', names: { checkpoint: 'base' } },
      sd: { kind: 'gpu-farm' as never, label: 'a newer kind' },
    } } };
    const handed = workerSettingsFor(s, ORIGIN, info, backendRules);
    expect(handed).not.toHaveProperty('imageBackends');
    expect(handed).not.toHaveProperty('backendCredentials');
    // The worker leaves out a kind it does not know (worker-api-backends.test.ts).
    expect(handed.forwardedBackends).toEqual(info.forwarder?.imageBackends);
    // A pool's servers (labels, down) reach the worker as their count, for "shared by 2 servers".
    const pool = forwardedBackends({ forwarder: { imageBackends: {
      sdxl: { kind: 'comfyui', label: 'ComfyUI', servers: [{ label: 'desk', down: false }, { label: 'box', down: true }] },
    } } });
    expect(pool?.sdxl).toEqual({ kind: 'comfyui', label: 'ComfyUI', servers: 2 });
    expect(forwardedBackends(null)).toBeUndefined();
    expect(forwardedBackends({ forwarder: { image: true, imageBackends: {} } })).toBeUndefined();
  });

  it('keeps every backend URL and credential out of what leaves the machine', () => {
    const s = withBackends({ all: comfy({ baseUrl: 'http://gpu.lan:8188' }), engines: { sd: { kind: 'a1111', fields: { a1111: { baseUrl: 'http://other.lan:7860', checkpoints: {}, refiner: '', model: '', assets: [] } } } } }, { backendCredentials: { 'sd:a1111': 'user:pass' } });
    expect(settingsSecrets(s, ORIGIN, backendRules)).toEqual(expect.arrayContaining(['http://gpu.lan:8188', 'http://other.lan:7860', 'user:pass', ORIGIN]));
  });
});

describe('what stops a run, with where to fix it', () => {
  it('names a backend URL that cannot be used, and sends nothing to it', () => {
    const s = withBackends({ all: comfy({ baseUrl: 'http://user:pw@gpu.lan:8188' }), engines: {} }, { backendCredentials: { 'all:comfyui': 'tok' } });
    expect(settingsProblems(s, null, undefined, backendRules)).toEqual(['the ComfyUI base URL must not hold a user name or password: put the token or password in its own field: correct it in Settings (Image backend, all engines)']);
    expect(workerSettingsFor(s, ORIGIN, null, backendRules)).not.toHaveProperty('imageBackends');
    // A run that draws nothing is not stopped by it.
    expect(settingsProblems(s, null, { image: false, text: true }, backendRules)).toEqual([]);
  });

  it('names an asset row that is half filled or maps a name twice', () => {
    const s = withBackends({ all: { kind: 'service', fields: {} }, engines: { sdxl: { kind: 'a1111', fields: { a1111: { baseUrl: '', checkpoints: {}, refiner: '', model: '', assets: [
      { name: 'svc:canny_sdxl', file: '' }, { name: '', file: 'depth' }, { name: 'svc:depth_sdxl', file: 'a' }, { name: 'svc:depth_sdxl', file: 'b' },
    ] } } } } });
    expect(settingsProblems(s, null, undefined, backendRules)).toEqual([
      "AUTOMATIC1111 / Forge asset row 1 has no file for 'svc:canny_sdxl': add the file in Settings (Image backend, SDXL v1.0)",
      "AUTOMATIC1111 / Forge asset row 2 has a file ('depth') but no asset name: add the name it stands for in Settings (Image backend, SDXL v1.0)",
      "AUTOMATIC1111 / Forge asset row 4 maps 'svc:depth_sdxl' a second time: keep one in Settings (Image backend, SDXL v1.0)",
    ]);
  });

  it('on the direct route, needs the image API base URL only while an engine still uses the service’s API', () => {
    const direct = { mode: 'direct' as const, directTextBaseUrl: 'https://t.example' };
    expect(settingsProblems(withBackends({ all: comfy(), engines: {} }, direct), null, undefined, backendRules)).toEqual([]);
    expect(workerSettingsFor(withBackends({ all: comfy(), engines: {} }, direct), ORIGIN, null, backendRules)).toMatchObject({ imageBaseUrl: '', imageBackends: { sdxl: { kind: 'comfyui' } } });
    expect(settingsProblems(withBackends({ all: comfy(), engines: { sd: { kind: 'service', fields: {} } } }, direct), null, undefined, backendRules))
      .toEqual(['Image API base URL is empty: enter it in Settings (Direct endpoints)']);
  });

  it('through this server, the browser’s backend settings stop nothing', () => {
    const s = withBackends({ all: comfy({ baseUrl: 'not a url' }), engines: {} }, { mode: 'forward' });
    expect(settingsProblems(s, null, undefined, backendRules)).toEqual([]);
  });
});

describe('the settings store', () => {
  it('reads the stored backends at start, and a run goes where they say', () => {
    const { storage } = memoryStorage();
    saveSettings(withBackends({ all: comfy({ baseUrl: 'http://127.0.0.1:8188', checkpoints: { sdxl: 'base.safetensors' } }), engines: {} }), storage, backendRules);
    const settings = createSettingsStore(storage);
    const link = storeLink(createEditorStore({ initial: starterWorkflow() }), settings, ORIGIN);
    expect(link.getSettings().imageBackends?.sdxl).toEqual({ kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188', names: { checkpoint: 'base.safetensors' } });
  });

  it('writes a backend as soon as it is chosen', () => {
    const { storage, local } = memoryStorage();
    const settings = createSettingsStore(storage);
    expect(local.has('atelier.image-backends.v1')).toBe(false);
    settings.update({ imageBackends: { all: comfy(), engines: {} } });
    expect(local.has('atelier.image-backends.v1')).toBe(true);
    expect(createSettingsStore(storage).get().imageBackends.all.kind).toBe('comfyui');
  });
});
