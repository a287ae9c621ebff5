/** What every backend factory takes. */
import type { ClientConfig } from '../http';
import type { BackendNamesConfig } from './config';
import type { BackendNames } from './types';

export interface BackendOptions extends ClientConfig {
  /** Backend-side names (checkpoint for the engine, refiner, model, asset mapping). */
  names?: BackendNamesConfig;
  /**
   * What the backend listed it has (its checkpoints, LoRAs…), when known: a request naming a file
   * missing from a list is refused before it is sent. Lists not given are not checked.
   */
  listed?: BackendNames;
  /**
   * A WebSocket constructor for backends that report progress over one (ComfyUI). The browser's
   * by default; Node 20 has none built in, so the CLI and server pass one in.
   */
  WebSocket?: typeof globalThis.WebSocket;
}
