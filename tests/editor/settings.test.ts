/** Settings: stored apart from workflows, tokens per session unless remembered, endpoints per mode. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, chatOnStandIn, checkBaseUrl, endpointsFor, loadSettings, saveSettings, settingsProblems, workerSettingsFor } from '../../src/settings/settings';
import { storeLink } from '../../src/run/store-link';
import { createServerInfoSource, type ServerInfo } from '../../src/settings/server-info';
import { createSettingsStore } from '../../src/settings/settings-store';
import { createEditorStore } from '../../src/store/editor-store';
import { starterWorkflow } from '../../src/store/starter';
import { apisUsedBy } from '../../nodes/api-use';
import { memoryStorage } from './memory-storage';

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
      imageBaseUrl: 'https://img.example.com/v', textBaseUrl: 'https://chat.example.com', token: 't', chatModel: 'atelier-local-chat', concurrency: 4, maxFanOut: 64,
    });
    expect(settingsProblems(s)).toEqual([]);
  });

  it('names what is wrong with a direct base URL', () => {
    expect(checkBaseUrl('ftp://x')).toEqual({ ok: false, reason: 'must start with https:// (or http://)' });
    expect(checkBaseUrl('https://user:pw@x.com')).toMatchObject({ ok: false, reason: expect.stringMatching(/user name or password/) });
    expect(checkBaseUrl('https://x.com?key=1')).toMatchObject({ ok: false });
    expect(settingsProblems({ ...DEFAULT_SETTINGS, mode: 'direct' })).toEqual([
      'Image API base URL is empty: enter it in Settings (Direct endpoints)',
      'Chat API base URL is empty: enter it in Settings (Direct endpoints), or choose Chat: local stand-in (offline, not a language model) in Settings (Chat)',
    ]);
    expect(settingsProblems({ ...DEFAULT_SETTINGS, mode: 'direct', directImageBaseUrl: 'https://i.example', directTextBaseUrl: 'chat' }))
      .toEqual(['Chat API base URL is not a URL (expected something like https://api.example.com): correct it in Settings (Direct endpoints), or choose Chat: local stand-in (offline, not a language model) in Settings (Chat)']);
  });
});

describe('chat chosen apart from images', () => {
  const ORIGIN = 'http://127.0.0.1:8787';
  const direct = { ...DEFAULT_SETTINGS, mode: 'direct' as const, directImageBaseUrl: 'https://img.example.com', directToken: 'direct-tok', chat: 'local' as const };

  it('direct images with chat on the local stand-in: chat goes to this server with its token, never the direct one', () => {
    expect(endpointsFor(direct, ORIGIN)).toEqual({
      imageBaseUrl: 'https://img.example.com', textBaseUrl: `${ORIGIN}/local/text`, token: 'direct-tok', chatAuth: {},
    });
    expect(endpointsFor({ ...direct, serverToken: 'srv' }, ORIGIN)).toMatchObject({ token: 'direct-tok', chatAuth: { token: 'srv' } });
    expect(workerSettingsFor(direct, ORIGIN)).toMatchObject({ textBaseUrl: `${ORIGIN}/local/text`, chatAuth: {} });
    // No Chat API base URL is needed; a server that wants its token for the local engine says so.
    expect(settingsProblems(direct)).toEqual([]);
    const locked: ServerInfo = { localEngines: { tokenRequired: true }, forwarder: { image: false, text: false } };
    expect(settingsProblems(direct, locked, { image: true, text: true })).toEqual([expect.stringMatching(/^this server requires a token/)]);
    expect(settingsProblems(direct, locked, { image: true, text: false })).toEqual([]);
  });

  it('is kept, and a stored setting without it keeps the route’s chat', () => {
    const { storage, local } = memoryStorage();
    saveSettings(direct, storage);
    expect(loadSettings(storage).chat).toBe('local');
    local.set('atelier.settings.v1', JSON.stringify({ mode: 'direct', directTextBaseUrl: 'https://t.example' }));
    expect(loadSettings(storage).chat).toBe('route');
  });

  it('through the server, chat on the stand-in goes to /local/text; a server without a chat upstream offers it, no problem', () => {
    const forward = { ...DEFAULT_SETTINGS, mode: 'forward' as const, serverToken: 'srv' };
    expect(endpointsFor({ ...forward, chat: 'local' }, ORIGIN)).toEqual({ imageBaseUrl: `${ORIGIN}/forward/image`, textBaseUrl: `${ORIGIN}/local/text`, token: 'srv' });
    const imagesOnly: ServerInfo = { localEngines: { tokenRequired: false }, forwarder: { image: true, text: false, chat: 'local' } };
    expect(settingsProblems(forward, imagesOnly, { image: true, text: true })).toEqual([]);
    expect(chatOnStandIn(forward, imagesOnly)).toBe(true);
    expect(chatOnStandIn(forward, { ...imagesOnly, forwarder: { image: true, text: true, chat: 'upstream' } })).toBe(false);
    expect(chatOnStandIn({ ...forward, chat: 'local' }, null)).toBe(true);
    expect(chatOnStandIn(DEFAULT_SETTINGS, null)).toBe(true);
  });
});

describe('what the server has, before a run', () => {
  const bare: ServerInfo = { localEngines: { tokenRequired: false }, forwarder: { image: false, text: false } };
  const both = { image: true, text: true };
  const forward = { ...DEFAULT_SETTINGS, mode: 'forward' as const };

  it('stops a run through a server that has no upstream for an API the run calls, naming the variable to set', () => {
    expect(settingsProblems(forward, bare, both)).toEqual([
      expect.stringMatching(/^this server has no image API to forward to: set ATELIER_IMAGE_BASE_URL .*on the server/),
      expect.stringMatching(/^this server has no chat API to forward to: set ATELIER_TEXT_BASE_URL .*on the server/),
    ]);
    // A forwarder of images only runs a workflow that only draws.
    const imagesOnly: ServerInfo = { ...bare, forwarder: { image: true, text: false } };
    expect(settingsProblems(forward, imagesOnly, { image: true, text: false })).toEqual([]);
    expect(settingsProblems(forward, imagesOnly, both)).toHaveLength(1);
    // The local engines need no forwarder.
    expect(settingsProblems(DEFAULT_SETTINGS, bare, both)).toEqual([]);
  });

  it('stops a run to a server that requires a token when none is set, on either of its routes', () => {
    const locked: ServerInfo = { localEngines: { tokenRequired: true }, forwarder: { image: true, text: true } };
    const missing = ['this server requires a token (it was started with ATELIER_LOCAL_TOKEN) and none is set: enter the server’s token in Settings (This server’s token)'];
    expect(settingsProblems(DEFAULT_SETTINGS, locked, both)).toEqual(missing);
    expect(settingsProblems(forward, locked, both)).toEqual(missing);
    expect(settingsProblems({ ...DEFAULT_SETTINGS, serverToken: 'srv' }, locked, both)).toEqual([]);
    // The direct route does not go through this server.
    expect(settingsProblems({ ...DEFAULT_SETTINGS, mode: 'direct', directImageBaseUrl: 'https://i.example', directTextBaseUrl: 'https://t.example' }, locked, both)).toEqual([]);
    // A run that calls no API needs no token.
    expect(settingsProblems(DEFAULT_SETTINGS, locked, { image: false, text: false })).toEqual([]);
  });

  it('assumes nothing missing while the server has not said, or could not be asked', () => {
    expect(settingsProblems(forward, null, both)).toEqual([]);
    expect(settingsProblems(forward, 'unreachable', both)).toEqual([]);
  });

  it('knows which APIs a workflow calls; a bypassed node calls none', () => {
    expect(apisUsedBy([{ type: 'text' }, { type: 'text-to-image' }])).toEqual({ image: true, text: false });
    expect(apisUsedBy([{ type: 'chat-prompt-writer' }, { type: 'inpaint', bypass: true }])).toEqual({ image: false, text: true });
  });

  it('the run is refused before it is sent, and the estimate says why, once the server has answered', async () => {
    const store = createEditorStore({ initial: starterWorkflow() });
    const settings = createSettingsStore(null);
    settings.update({ mode: 'forward' });
    let answer: (info: ServerInfo) => void = () => undefined;
    const server = createServerInfoSource(() => new Promise((resolve) => { answer = resolve; }));
    const link = storeLink(store, settings, 'http://127.0.0.1:8787', server);
    let changes = 0;
    link.subscribe(() => changes++);
    // Not known yet: nothing is assumed.
    expect(link.getSettings()).toMatchObject({ imageBaseUrl: 'http://127.0.0.1:8787/forward/image' });
    answer(bare);
    await expect.poll(() => changes).toBe(1);
    expect(() => link.getSettings()).toThrow(/^the settings stop the run: this server has no image API to forward to: set ATELIER_IMAGE_BASE_URL.*; this server has no chat API/);
  });
});

describe('the server info source', () => {
  it('asks when first read, keeps the answer, asks again on refresh, and says when the server did not answer', async () => {
    let calls = 0;
    let fail = false;
    const server = createServerInfoSource(() => {
      calls++;
      return fail ? Promise.reject(new Error('down')) : Promise.resolve({ forwarder: { image: calls > 1 } });
    });
    expect(calls).toBe(0);
    expect(server.get()).toBeNull();
    await expect.poll(() => server.get()).toEqual({ forwarder: { image: false } });
    server.get();
    expect(calls).toBe(1);
    await server.refresh();
    expect(server.get()).toEqual({ forwarder: { image: true } });
    fail = true;
    await server.refresh();
    expect(server.get()).toBe('unreachable');
  });
});
