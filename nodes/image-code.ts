/**
 * The image nodes' request building, checking and sending (image-request.ts, with the API's
 * request rules and the CLIP token count), fetched by `loadImageRequests`: each image node's
 * `load`. Whatever validates or runs nodes awaits their `load` first (workers/load-nodes.ts); the
 * editor's page draws image nodes and their forms without this code, and its run worker checks
 * and runs them.
 */
import type * as ImageRequestModule from './image-request';

let loaded: typeof ImageRequestModule | undefined;
let loading: Promise<void> | undefined;

export function loadImageRequests(): Promise<void> {
  loading ??= import('./image-request').then((m) => {
    loaded = m;
  }, (error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** image-request.ts, once `loadImageRequests` has resolved; throws before. */
export function imageRequests(): typeof ImageRequestModule {
  if (!loaded) throw new Error("the image nodes' code is not loaded: await the node definitions' load() (workers/load-nodes.ts) before validating or running them");
  return loaded;
}
