/**
 * Two pools of the same servers (the settings send two engines to one list of servers, and each
 * engine gets its own pool) count each server's requests together: one engine's requests are seen
 * by the other's placement and window, so neither piles onto a server the other keeps busy.
 */
import { describe, expect, it } from 'vitest';
import { createBackend } from '../../../api/backends/index';
import { BACKENDS } from '../../../api/backends/registry';
import type { BackendEntry } from '../../../api/backends/describe';
import { createPoolBackend, type PoolBackend } from '../../../api/backends/pool/index';
import type { ImageBackend, ImageCallOptions } from '../../../api/backends/types';
import type { ImageRequest } from '../../../api/image-schema';

/** Servers by address whose requests end only when the test finishes them. */
function servers() {
  const open = new Map<string, (() => void)[]>();
  const received: { at: string; prompt: string }[] = [];
  const make = (address: string): ImageBackend => ({
    kind: 'comfyui',
    label: 'ComfyUI',
    reportsAcceptance: true,
    review: () => ({ backend: 'comfyui', label: 'ComfyUI', refusals: [], notes: [], translated: undefined }),
    generate(_engine, request: ImageRequest, options: ImageCallOptions = {}) {
      options.onSending?.();
      received.push({ at: address, prompt: request.prompt });
      options.onAccepted?.();
      return new Promise((resolve) => {
        const list = open.get(address) ?? [];
        open.set(address, list);
        list.push(() => resolve({ images: [{ image_b64: 'AAAA', seed: 1 }] }));
      });
    },
  });
  return {
    make,
    received,
    at: (prompt: string) => received.find((r) => r.prompt === prompt)?.at,
    finishOne: (address: string) => open.get(address)?.shift()?.(),
  };
}

const request = (prompt: string): ImageRequest => ({ prompt }) as ImageRequest;
const settle = async () => { for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0)); };

describe('pools of the same servers', () => {
  it('share each server\'s in-flight count and its waiting line, however the address is spelled', async () => {
    const s = servers();
    const one = 'http://127.0.0.1:18188';
    const two = 'http://127.0.0.1:18189';
    const sdxl = createPoolBackend([{ label: 'a', address: one, backend: s.make(one) }, { label: 'b', address: two, backend: s.make(two) }]);
    const sd = createPoolBackend([{ label: 'a', address: `${one}/`, backend: s.make(one) }, { label: 'b', address: two.replace('http:', 'HTTP:'), backend: s.make(two) }]);
    const first = sdxl.generate('sdxl', request('sdxl-1'));
    await settle();
    // The other pool sees the first server busy with sdxl's request and picks the second.
    const second = sd.generate('sd', request('sd-1'));
    await settle();
    expect([s.at('sdxl-1'), s.at('sd-1')]).toEqual([one, two]);
    expect(sd.status().map((x) => x.inFlight)).toEqual([1, 1]);
    // Both servers full (two each, from both pools): sd's next request waits for room...
    const more = [sdxl.generate('sdxl', request('sdxl-2')), sdxl.generate('sdxl', request('sdxl-3'))];
    const waiting = sd.generate('sd', request('sd-2'));
    await settle();
    expect(s.at('sd-2')).toBeUndefined();
    // ...and goes as soon as a request of the other pool ends there.
    s.finishOne(one);
    await settle();
    expect(s.at('sd-2')).toBe(one);
    for (let i = 0; i < 3; i++) { s.finishOne(one); s.finishOne(two); }
    await Promise.all([first, second, ...more, waiting]);
    expect(sdxl.status().map((x) => x.inFlight)).toEqual([0, 0]);
  });

  it('createBackend gives two engines\' pools of one list of servers the same counts', async () => {
    const s = servers();
    const fake: readonly BackendEntry[] = BACKENDS.map((b) => (b.description.kind === 'comfyui' ? { ...b, load: () => Promise.resolve((o: { baseUrl: string }) => s.make(o.baseUrl)) } : b));
    const config = { kind: 'comfyui' as const, baseUrl: 'http://127.0.0.1:28188', baseUrls: [{ label: 'desk', url: 'http://127.0.0.1:28188' }, { label: 'rack', url: 'http://127.0.0.1:28189' }] };
    const sdxl = await createBackend({ config }, {}, fake) as PoolBackend;
    const sd = await createBackend({ config }, {}, fake) as PoolBackend;
    const first = sdxl.generate('sdxl', request('sdxl-1'));
    await settle();
    const second = sd.generate('sd', request('sd-1'));
    await settle();
    expect([s.at('sdxl-1'), s.at('sd-1')]).toEqual(['http://127.0.0.1:28188', 'http://127.0.0.1:28189']);
    s.finishOne('http://127.0.0.1:28188');
    s.finishOne('http://127.0.0.1:28189');
    await Promise.all([first, second]);
    sdxl.close();
    sd.close();
  });
});
