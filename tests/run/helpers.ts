/**
 * The editor's run side without a browser: the real worker API (executor, fake nodes and
 * clients) behind a RunClient, and object URLs that are counted instead of made.
 */
import type { NodeRegistry } from '../../workers/validate';
import { createWorkerApi, type WorkerApi } from '../../workers/worker-api';
import type { UrlFactory } from '../../src/results/object-urls';
import type { RunClient } from '../../src/run/worker-client';
import { fakeChatClient, fakeImageClient, fakeRegistry } from '../workers/fakes';

/** Object URLs as counters: which are live, and how many were ever made. */
export function countingUrls() {
  const live = new Set<string>();
  let made = 0;
  const urls: UrlFactory = {
    createObjectURL(blob) {
      const url = `blob:test/${++made}/${blob.type}/${blob.size}`;
      live.add(url);
      return url;
    },
    revokeObjectURL(url) {
      if (!live.delete(url)) throw new Error(`revoked ${url}, which is not live`);
    },
  };
  return { urls, live, get made() { return made; } };
}

/** A RunClient that runs the worker API in this thread, as the worker would. */
export function inThreadClient(options: { imageLatencyMs?: number; chatAnswer?: string; registry?: NodeRegistry } = {}) {
  const image = fakeImageClient({ latencyMs: options.imageLatencyMs ?? 1 });
  const chat = fakeChatClient(options.chatAnswer);
  const api: WorkerApi = createWorkerApi({
    registry: options.registry ?? fakeRegistry,
    createImageClient: () => image.client,
    createChatClient: () => chat.client,
    transfer: (value) => value,
  });
  let settings = 0;
  const client: RunClient = {
    async run(workflow, s, runOptions, onEvent, confirmFanOut) {
      await api.configure(s);
      settings++;
      return api.run(workflow, runOptions, onEvent, confirmFanOut);
    },
    cancel: () => api.cancel(),
    async estimate(workflow, s, planOptions) {
      await api.configure(s);
      return api.estimate(workflow, planOptions);
    },
    async cachedResults(workflow, s) {
      await api.configure(s);
      return api.cachedResults(workflow);
    },
    cacheStats: () => api.cacheStats(),
    clearCache: () => api.clearCache(),
    countPromptTokens: async (prompts) => api.countPromptTokens(prompts),
    planBatch: async (workflow, count, options) => api.planBatch(workflow, count, options),
    pinSeeds: async (workflow, used) => api.pinSeeds(workflow, used),
    listBackendNames: (config, credential) => api.listBackendNames(config, credential),
    dispose: () => undefined,
  };
  return { client, image, chat, get configured() { return settings; } };
}

export const settings = { imageBaseUrl: 'http://engines.test/image', textBaseUrl: 'http://engines.test/text', chatModel: 'local-chat', token: 's3cret-token' };
