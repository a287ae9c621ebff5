/** Results that stay: a new page shows the cache's results without running anything, and takes back the stale. */
import { describe, expect, it } from 'vitest';
import { createRunController } from '../../src/run/controller';
import type { EstimateState, Estimator } from '../../src/run/estimator';
import { createSmallStore } from '../../src/ui/small-store';
import { restoreFromCache } from '../../src/run/restore-results';
import { imagesOf } from '../../src/results/object-urls';
import { restoredText } from '../../src/run/format';
import { workflow } from '../workers/fakes';
import { countingUrls, inThreadClient, settings } from './helpers';

const chain = (prompt = 'unused') =>
  workflow([['chat', 'chat'], ['gen', 'gen', { prompt, seed: 5 }]], ['chat.text -> gen.prompt']);

/** Two pages on one worker's cache: the one that ran, and the one after a reload. */
function twoPages() {
  const fake = inThreadClient({ chatAnswer: 'a red fox at dawn' });
  const page = () => {
    const counted = countingUrls();
    return { ...counted, controller: createRunController({ client: fake.client, settings: () => settings, urls: counted.urls }) };
  };
  return { fake, first: page(), second: page() };
}

describe('results restored from the cache', () => {
  it('come back on a new page, marked restored with when they were made, with no request sent', async () => {
    const { fake, first, second } = twoPages();
    const before = Date.now();
    await first.controller.run(chain());
    const calls = fake.image.calls.length;

    await second.controller.restoreCached(chain());

    const gen = second.controller.state.results.get('gen');
    expect(gen?.restored?.at).toBeGreaterThanOrEqual(before);
    expect(gen?.cached).toBe(true);
    expect(imagesOf(gen!.outputs)).toHaveLength(1);
    expect(imagesOf(gen!.outputs)[0]).toMatchObject({ mime: 'image/jpeg', seed: 5 });
    expect(second.controller.state.results.get('chat')?.outputs.text).toEqual({ kind: 'text', value: 'a red fox at dawn' });
    expect(fake.image.calls).toHaveLength(calls);
    expect(second.live.size).toBe(1);

    // A run of the new page answers from the cache and replaces them with its own.
    const summary = await second.controller.run(chain());
    expect(summary?.nodes.cached).toBe(2);
    expect(second.controller.state.results.get('gen')?.restored).toBeUndefined();
    expect(second.live.size).toBe(1);
  });

  it('never replace a result of a run of this page, and nothing is restored that the cache does not hold', async () => {
    const { first, second } = twoPages();
    await second.controller.restoreCached(chain());
    expect([...second.controller.state.results.keys()]).toEqual([]);

    await first.controller.run(chain());
    const own = first.controller.state.results.get('gen');
    await first.controller.restoreCached(chain());
    expect(first.controller.state.results.get('gen')).toBe(own);
  });

  it('follow the estimate: an edit that the cache no longer answers takes the restored result back, releasing its image', async () => {
    const { first, second } = twoPages();
    await first.controller.run(chain());
    const state = createSmallStore<EstimateState>({ status: 'waiting' });
    const estimator: Estimator = { state, start: () => () => undefined };
    const stop = restoreFromCache(second.controller, estimator);

    const doc = chain();
    state.set({ status: 'ready', workflow: doc, stale: false, estimate: await second.controller.estimate(doc, { mode: 'all' }) });
    await expect.poll(() => second.controller.state.results.get('gen')?.restored).toBeDefined();

    // The chat's answer feeds the image node: a new seed there makes its result stale, not the chat's.
    const edited = workflow([['chat', 'chat'], ['gen', 'gen', { prompt: 'unused', seed: 6 }]], ['chat.text -> gen.prompt']);
    state.set({ status: 'ready', workflow: edited, stale: false, estimate: await second.controller.estimate(edited, { mode: 'all' }) });
    expect(second.controller.state.results.get('gen')).toBeUndefined();
    expect(second.controller.state.results.get('chat')?.restored).toBeDefined();
    expect(second.live.size).toBe(0);
    stop();
  });

  it('say when they were made, with the date when not today', () => {
    const now = new Date(2026, 10, 24, 20, 0);
    expect(restoredText(null, now)).toBe('Restored from cache');
    // In the browser's own format: the time alone today, with the day before it otherwise.
    const today = restoredText(new Date(2026, 10, 24, 14, 32).getTime(), now);
    const earlier = restoredText(new Date(2026, 10, 20, 14, 32).getTime(), now);
    expect(today).toMatch(/^Restored from cache · made \S*\d\d?\D32/);
    expect(today).not.toContain('24');
    expect(earlier).toContain('20');
    expect(earlier.endsWith(today.slice('Restored from cache · made '.length))).toBe(true);
  });
});
