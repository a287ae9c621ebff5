/**
 * Image backends: where an engine's requests go and how they are translated. A workflow file
 * always speaks the service's contract (engine `sdxl`, `sd`, `controlnet-sdxl`, the fields of
 * `ImageRequest`); a backend is a setting of the browser, the server or the CLI that sends that
 * request to something real (ComfyUI, AUTOMATIC1111 / Forge, an OpenAI-style Images API) or to
 * the service's own API (the local engines). Each backend is a folder beside this file, listed
 * once in registry.ts (its kinds, labels and usual addresses are there).
 *
 * Translation is honest: every field of a request is sent with its meaning kept, approximated
 * (and said so), not sent (and said so), or refused (the request is not sent at all). `review`
 * says which, before anything is sent, from the request alone.
 */
import type { EngineId } from '../catalog';
import type { CallOptions, ImageClient } from '../client-types';
import type { FieldIssue } from '../issues';
import type { ImageRequest, ImageResponse } from '../image-schema';
import type { RunPipeline } from './comfyui/pipeline/request';
import type { PlacementNeeds } from './pool/placement';

import type { BackendKind } from './registry';

export type { BackendKind };

/** What a backend does with one field of the request that it does not send as it is. */
export interface TranslationNote {
  /** The request field, in the service's name (`negative_prompt`, `width`, `loras.svc:foo`). */
  field: string;
  /** `approximated`: sent, with a meaning that differs; `not-sent`: left out. */
  treatment: 'approximated' | 'not-sent';
  /** In a person's words, e.g. "896×1152 becomes 1024×1536 (the nearest size OpenAI Images makes)". */
  message: string;
}

/** What the backend will do with a request, found without sending anything. */
export interface TranslationReview {
  backend: BackendKind;
  /** The backend as the person named it (`ComfyUI`), for messages. */
  label: string;
  /** What makes the request impossible on this backend; when any, nothing is sent. */
  refusals: FieldIssue[];
  /** Fields approximated or not sent. */
  notes: TranslationNote[];
  /**
   * The request as it will be sent (ComfyUI's prompt graph, AUTOMATIC1111's payload), with images
   * replaced by a short description: for the run's record and an image's manifest. Never holds a
   * credential or an endpoint.
   */
  translated: unknown;
  /** A pool's: how many servers share its requests. */
  servers?: number;
}

/** Options of one image call; a backend reports its own progress when it can (steps done). */
export interface ImageCallOptions extends CallOptions {
  /** Fraction done, 0 to 1, with a word on what is happening ("step 12 of 30"). */
  onProgress?: (fraction: number, message?: string) => void;
  /**
   * The server took the request (ComfyUI: its queue holds the prompt). After this a failure is
   * the server's to report and a pool never sends the request elsewhere (no double work).
   */
  onAccepted?: () => void;
  /**
   * The request that makes the server take the work is about to be sent (ComfyUI: POST /prompt).
   * From here until `onAccepted`, a failure other than a refused connection may hide work the
   * server took, so a pool never sends the request elsewhere.
   */
  onSending?: () => void;
}

/** Names a backend offers, for the settings' and forms' suggestions. Absent lists: not known. */
export interface BackendNames {
  checkpoints?: string[];
  samplers?: string[];
  loras?: string[];
  embeddings?: string[];
  vaes?: string[];
  controlnets?: string[];
  /** OpenAI-style model ids. */
  models?: string[];
}

/**
 * What a backend says one request will cost before it is sent, from the provider's published
 * prices: `amountUsd` per `per`, read on `date` (YYYY-MM-DD) from `source` (the price page's URL);
 * or that it cannot say, and why.
 */
export type PriceQuote =
  | { known: true; amountUsd: number; per: 'image' | 'second' | 'megapixel'; source: string; date: string }
  | { known: false; why: string };

/** What the provider says it billed for a request, where it says (hosted backends). */
export interface ReportedCost {
  amountUsd: number;
  reported: true;
}

/**
 * One backend, for all the engines routed to it. `generate` resolves with the service's response
 * shape (2.6): `images[].image_b64`, plus `seed` where the backend says which seed made an image.
 * Its failures are ApiErrors whose detail is in a person's words and never holds the credential.
 */
export interface ImageBackend {
  readonly kind: BackendKind;
  readonly label: string;
  /** Calls `onAccepted` when the server takes a request, so a failure before it is known to be no work done. */
  readonly reportsAcceptance?: boolean;
  /** Pure and fast (no network, no image decode): what `generate` would do with `request`. */
  review(engine: EngineId, request: ImageRequest): TranslationReview;
  generate(engine: EngineId, request: ImageRequest, options?: ImageCallOptions): Promise<ImageResponse & { cost?: ReportedCost }>;
  /** A pool's: how its servers stand, told at once and at every change (ImageClient.watchServers). */
  watchServers?: ImageClient['watchServers'];
  /** Runs a whole ComfyUI workflow (a pipeline node's); only ComfyUI can. */
  runPipeline?: RunPipeline;
  /**
   * How many jobs the server has queued or running, its own and others' (ComfyUI `GET /queue`;
   * AUTOMATIC1111 says only whether it is busy: 1 or 0). For a pool's placement.
   */
  serverQueue?(options?: CallOptions): Promise<number>;
  /** The backend-side files a request needs a server to hold, as its lists name them: for a pool's placement. */
  placementNeeds?(engine: EngineId, request: ImageRequest): PlacementNeeds;
  /** Asks the backend what it has (checkpoints, samplers…), where it can say. */
  listNames?(options?: CallOptions): Promise<BackendNames>;
  /**
   * Pure and fast, like `review`: what `request` will cost on this backend. Hosted providers
   * quote it; a backend on your own machine has no price and leaves this out.
   */
  price?(engine: EngineId, request: ImageRequest): PriceQuote;
}
