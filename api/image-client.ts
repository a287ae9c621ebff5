/**
 * The image generation client: `POST {image_base_url}/generate/{engine}` (docs/service-interface.md
 * 2.1, 2.6 and 4), with the shared timeouts, retries and typed errors.
 */
import type { EngineId } from './catalog';
import type { ImageClient } from './client-types';
import { createHttp, type ClientConfig } from './http';
import { ImageResponseSchema } from './image';

/** Several large base64 images fit; a body beyond this is refused rather than buffered. */
export const IMAGE_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

export type ImageClientConfig = ClientConfig;

/**
 * Builds an image client; throws a TypeError or RangeError naming a bad setting. The request is
 * sent as given: the service, not the client, is the judge of what it accepts.
 */
export function createImageClient(config: ImageClientConfig): ImageClient {
  const http = createHttp(config, IMAGE_MAX_RESPONSE_BYTES);
  return {
    generate(engine: EngineId, request, options = {}) {
      return http.requestJson(
        { method: 'POST', path: `/generate/${encodeURIComponent(engine)}`, body: request, accept: 'application/json' },
        ImageResponseSchema,
        options,
      );
    },
  };
}
