/** Settings: stored apart from workflows, tokens per session unless remembered, endpoints per mode. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS, checkBaseUrl, endpointsFor, loadSettings, saveSettings, settingsProblems, workerSettingsFor,
  type SettingsStorage,
} from '../../src/settings/settings';
import { createSettingsStore } from '../../src/settings/settings-store';

function memoryStorage() {
  const make = () => {
    const map = new Map<string, string>();
    return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) };
  };
  const local = make();
  const session = make();
  const storage: SettingsStorage = { local, session };
  return { storage, local: local.map, session: session.map };
}

describe('settings storage', () => {
  it('defaults to the local engines', () => {
    const { storage } = memoryStorage();
    expect(loadSettings(storage)).toEqual(DEFAULT_SETTINGS);
    expect(endpointsFor(DEFAULT_SETTINGS, 'http://127.0.0.1:8787')).toEqual({
      imageBaseUrl: 'http://127.0.0.1:8787/local/image', textBaseUrl: 'http://127.0.0.1:8787/local/text',
    });
  });

  it('keeps tokens for the session only, unless remembered', () => {
    const { storage, local, session } = memoryStorage();
    saveSettings({ ...DEFAULT_SETTINGS, mode: 'direct', directToken: 'secret-1' }, storage);
    expect([...local.values()].join()).not.toContain('secret-1');
    expect([...session.values()].join()).toContain('secret-1');
    expect(loadSettings(storage).directToken).toBe('secret-1');

    saveSettings({ ...DEFAULT_SETTINGS, mode: 'direct', directToken: 'secret-1', rememberTokens: true }, storage);
    expect([...session.values()].join()).not.toContain('secret-1');
    expect([...local.values()].join()).toContain('secret-1');

    saveSettings({ ...DEFAULT_SETTINGS, mode: 'direct', directToken: 'secret-1', rememberTokens: false }, storage);
    expect([...local.values()].join()).not.toContain('secret-1');
  });

  it('survives damaged storage and clamps concurrency', () => {
    const { storage, local } = memoryStorage();
    local.set('atelier.settings.v1', '{not json');
    expect(loadSettings(storage)).toEqual(DEFAULT_SETTINGS);
    local.set('atelier.settings.v1', JSON.stringify({ mode: 'evil', concurrency: 1000, chatModel: 7 }));
    expect(loadSettings(storage)).toMatchObject({ mode: 'local', concurrency: 16, chatModel: DEFAULT_SETTINGS.chatModel });
  });

  it('the store writes through and notifies', () => {
    const { storage } = memoryStorage();
    const store = createSettingsStore(storage);
    let calls = 0;
    store.subscribe(() => calls++);
    store.update({ concurrency: 2 });
    expect(calls).toBe(1);
    expect(createSettingsStore(storage).get().concurrency).toBe(2);
  });
});

describe('endpoints', () => {
  it('forwards through the local server with its token, never the direct one', () => {
    const s = { ...DEFAULT_SETTINGS, mode: 'forward' as const, serverToken: 'srv', directToken: 'direct' };
    expect(endpointsFor(s, 'http://localhost:8787')).toEqual({
      imageBaseUrl: 'http://localhost:8787/forward/image', textBaseUrl: 'http://localhost:8787/forward/text', token: 'srv',
    });
  });

  it('goes direct with cleaned base URLs and the direct token', () => {
    const s = { ...DEFAULT_SETTINGS, mode: 'direct' as const, directImageBaseUrl: ' https://img.example.com/v/ ', directTextBaseUrl: 'https://chat.example.com', directToken: 't' };
    expect(workerSettingsFor(s, 'http://x')).toEqual({
      imageBaseUrl: 'https://img.example.com/v', textBaseUrl: 'https://chat.example.com', token: 't', chatModel: 'atelier-local-chat', concurrency: 4,
    });
    expect(settingsProblems(s)).toEqual([]);
  });

  it('names what is wrong with a direct base URL', () => {
    expect(checkBaseUrl('ftp://x')).toEqual({ ok: false, reason: 'must start with https:// (or http://)' });
    expect(checkBaseUrl('https://user:pw@x.com')).toMatchObject({ ok: false, reason: expect.stringMatching(/user name or password/) });
    expect(checkBaseUrl('https://x.com?key=1')).toMatchObject({ ok: false });
    expect(settingsProblems({ ...DEFAULT_SETTINGS, mode: 'direct' })).toEqual(['Image API base URL is empty', 'Chat API base URL is empty']);
  });
});
