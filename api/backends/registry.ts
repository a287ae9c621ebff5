/**
 * Every image backend, once: its description (light, loaded by the editor's first page) and its
 * factory, loaded only when a backend of that kind is built. Settings, the CLI, the server and the
 * docs take the kinds, labels, default addresses, credentials and names from here. Adding a
 * backend is its folder under api/backends/ and one line below (docs/backends.md, "Adding a
 * backend").
 */
import { a1111Description } from './a1111/describe';
import { comfyDescription } from './comfyui/describe';
import { defineBackends, registryOf } from './describe';
import { falDescription } from './fal/describe';
import { googleDescription } from './google/describe';
import { openaiDescription } from './openai/describe';
import { replicateDescription } from './replicate/describe';
import { serviceDescription } from './service/describe';

export const BACKENDS = defineBackends([
  { description: serviceDescription, load: () => import('./service/index').then((m) => m.createServiceBackend) },
  { description: comfyDescription, load: () => import('./comfyui/index').then((m) => m.createComfyBackend) },
  { description: a1111Description, load: () => import('./a1111/index').then((m) => m.createA1111Backend) },
  { description: openaiDescription, load: () => import('./openai/index').then((m) => m.createOpenAIImagesBackend) },
  { description: falDescription, load: () => import('./fal/index').then((m) => m.createFalBackend) },
  { description: replicateDescription, load: () => import('./replicate/index').then((m) => m.createReplicateBackend) },
  { description: googleDescription, load: () => import('./google/index').then((m) => m.createGoogleBackend) },
]);

/** A backend's id: `service`, `comfyui`… (settings, `--image-backend`, `ATELIER_IMAGE_BACKEND`). */
export type BackendKind = (typeof BACKENDS)[number]['description']['kind'];

const derived = registryOf<BackendKind>(BACKENDS);

/** Every kind, the service's API first (a tuple, for schemas that take a non-empty list). */
export const BACKEND_KINDS = derived.kinds;
/** The description of each kind. */
export const BACKEND_DESCRIPTION = derived.description;
/** How each backend is named to a person. */
export const BACKEND_LABEL = derived.label;
/** The base URL each backend kind usually listens on. */
export const DEFAULT_BASE_URL = derived.defaultBaseUrl;
/** Whether `value` is a kind this build knows. */
export const isBackendKind = derived.isKind;
