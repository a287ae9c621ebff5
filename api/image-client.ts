/**
 * The image generation client: `POST {image_base_url}/generate/{engine}` (docs/service-interface.md
 * 2.1, 2.6 and 4), with the shared timeouts, retries and typed errors. A call that listens for
 * progress asks the local server's forwarder for its progress lines (api/progress-lines.ts).
 */
import { z } from 'zod';
import type { EngineId } from './catalog';
import type { ImageClient, ServersReport } from './client-types';
import { readBody } from './exchange';
import { createHttp, type ClientConfig } from './http';
import { ImageResponseSchema } from './image';
import { isProgressLines, PROGRESS_ACCEPT, readProgressLines } from './progress-lines';
import { withRetries } from './retry';

/** Several large base64 images fit; a body beyond this is refused rather than buffered. */
export const IMAGE_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

export type ImageClientConfig = ClientConfig;

/**
 * Builds an image client; throws a TypeError or RangeError naming a bad setting. The request is
 * sent as given: the service, not the client, is the judge of what it accepts.
 */
export function createImageClient(config: ImageClientConfig): ImageClient {
  const http = createHttp(config, IMAGE_MAX_RESPONSE_BYTES);
  const maxBytes = config.maxResponseBytes ?? IMAGE_MAX_RESPONSE_BYTES;
  // The local server's forwarder reports a pool's servers in its progress lines: told to whoever watches.
  const watchers = new Set<(report: ServersReport) => void>();
  const tell = (report: ServersReport) => {
    for (const watcher of [...watchers]) watcher(report);
  };
  return {
    watchServers(listener) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
    generate(engine: EngineId, request, options = {}) {
      const spec = { method: 'POST' as const, path: `/generate/${encodeURIComponent(engine)}`, body: request, accept: 'application/json' };
      const { onProgress } = options;
      if (onProgress === undefined) return http.requestJson(spec, ImageResponseSchema, options);
      return withRetries(async (attempt) => {
        const exchange = await http.open({ ...spec, accept: PROGRESS_ACCEPT }, attempt, options.signal);
        if (!isProgressLines(exchange)) return http.parseJson(exchange, await readBody(exchange, maxBytes, 'refuse', http.secrets), ImageResponseSchema);
        const result = await readProgressLines(exchange, maxBytes, http.secrets, onProgress, tell);
        // Validated as the plain answer is, its field paths under `result`.
        return http.parseJson(exchange, JSON.stringify({ result }), z.object({ result: ImageResponseSchema })).result;
      }, http.policy, options.signal, http.secrets, options.onRetry);
    },
  };
}
