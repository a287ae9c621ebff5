/** What every backend factory takes. */
import type { ClientConfig } from '../http';
import type { BackendNamesConfig } from './config';

export interface BackendOptions extends ClientConfig {
  /** Backend-side names (checkpoint for the engine, refiner, model, asset mapping). */
  names?: BackendNamesConfig;
  /**
   * A WebSocket constructor for backends that report progress over one (ComfyUI). The browser's
   * by default; Node 20 has none built in, so the CLI and server pass one in.
   */
  WebSocket?: typeof globalThis.WebSocket;
}
