/**
 * What each image backend of the run has (its checkpoints, LoRAs…), asked once per backend before
 * the workflow is checked, so a file the backend lacks stops the run before anything is sent, on
 * its node's field. Only backends whose names are files are asked (see `listsFiles`). A backend that cannot be asked (not running, no such list) is not checked:
 * the run then says what the backend answers.
 */
import { listsFiles } from '../api/backends/describe';
import { createBackend, type BackendNames, type EngineBackends } from '../api/backends/index';
import { BACKEND_DESCRIPTION } from '../api/backends/registry';
import { ENGINES, type EngineId } from '../api/catalog';

/** How long the lists are waited for: a backend that hangs must not hold the run up for long. */
const LIST_TIMEOUT_MS = 10_000;

/** The names each routed engine's backend lists, by engine; engines whose backend could not say are left out. */
export async function listRoutedNames(backends: EngineBackends, credential: string | undefined): Promise<Partial<Record<EngineId, BackendNames>>> {
  const asked = new Map<string, Promise<BackendNames | undefined>>();
  const listed: Partial<Record<EngineId, BackendNames>> = {};
  await Promise.all(ENGINES.map(async (engine) => {
    const config = backends[engine];
    if (config === undefined || !listsFiles(BACKEND_DESCRIPTION[config.kind])) return;
    // One question per backend (kind and address), whatever engines share it.
    const key = `${config.kind} ${config.baseUrl}`;
    let answer = asked.get(key);
    if (answer === undefined) {
      answer = createBackend({ config: { kind: config.kind, baseUrl: config.baseUrl }, ...(credential === undefined ? {} : { credential }) })
        .then((backend) => backend.listNames?.({ signal: AbortSignal.timeout(LIST_TIMEOUT_MS) }))
        .catch(() => undefined);
      asked.set(key, answer);
    }
    const names = await answer;
    if (names !== undefined) listed[engine] = names;
  }));
  return listed;
}
