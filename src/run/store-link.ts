/** The EditorLink of the real editor: its store, its settings and its node registry. */
import { fieldLabel, nodeName } from '../../nodes/labels';
import { apisUsedBy } from '../../nodes/api-use';
import { pinSeedPatch, seedChangePatch } from '../../nodes/seed-control';
import type { WorkerSettings } from '../../workers/worker-api';
import { innerNodeAt } from '../../workflow/inner-nodes';
import { serverInfo, type ServerInfoSource } from '../settings/server-info';
import { knownBackendNames, subscribeBackendNames } from '../settings/backend-names';
import type { ListedNames } from '../settings/settings';
import { settingsProblems, settingsSecrets, settingsStore, workerSettingsFor, type EditorStore, type SettingsStore } from '../store';
import type { NodeDescription } from './context';
import type { EditorLink } from './editor-link';

/** Settings that cannot be run with; the message says which setting and why. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/** The undo group of seeds moved on after runs: consecutive runs merge into one step. */
const SEEDS_GROUP = 'seeds:after-run';

/** The names a backend listed when the settings asked it; the service's API lists none. */
const listedNames: ListedNames = (config, credential) => (config.kind === 'service' ? undefined : knownBackendNames(config.kind, config.baseUrl, credential));

export function storeLink(store: EditorStore, settings: SettingsStore = settingsStore, origin = location.origin, server: ServerInfoSource = serverInfo): EditorLink {
  return {
    registry: store.registry,
    getWorkflow: () => store.getState().doc,
    loads: () => store.getState().loads,
    subscribe(listener) {
      const offStore = store.subscribe(listener);
      const offSettings = settings.subscribe(listener);
      // What the server has decides whether the settings can run: its answer is a change too.
      const offServer = server.subscribe(listener);
      // A backend's lists arriving can make a name the run would send a problem.
      const offNames = subscribeBackendNames(listener);
      return () => {
        offStore();
        offSettings();
        offServer();
        offNames();
      };
    },
    getSettings(): WorkerSettings {
      const current = settings.get();
      const info = server.get();
      const rules = settings.backendRules();
      const problems = settingsProblems(current, info, apisUsedBy(store.getState().doc.nodes), rules);
      if (problems.length > 0) throw new SettingsError(`the settings stop the run: ${problems.join('; ')}`);
      return workerSettingsFor(current, origin, info, rules, listedNames);
    },
    secrets() {
      return settingsSecrets(settings.get(), origin, settings.backendRules());
    },
    focusNode: (nodeId, field) => store.focusNode(nodeId, field),
    describeNode(nodeId): NodeDescription {
      // A run names an inner node of a component through its instances: "Restyle › Image to image".
      const inner = nodeId.includes('/') ? innerNodeAt(store.getState().doc, nodeId) : undefined;
      const node = inner?.node ?? store.getState().index.nodeById.get(nodeId);
      if (!node) return { label: nodeId };
      const def = store.registry.get(node.type);
      const named = { label: [...(inner?.names ?? []), nodeName(node, def)].join(' › '), fieldLabel: (field: string) => fieldLabel(def, field) };
      const filename = node.params.filename;
      return typeof filename === 'string' && filename.trim() !== '' ? { ...named, filename } : named;
    },
    selectedNode() {
      const { nodes } = store.getState().selection;
      return nodes.size === 1 ? [...nodes][0] : undefined;
    },
    runNodeId(nodeId) {
      const { scope } = store.getState();
      return scope.length === 0 ? nodeId : `${scope.map((level) => level.instanceId).join('/')}/${nodeId}`;
    },
    // Runs name nodes by flat id, whatever the canvas shows: the seeds land where the file holds
    // them, an inner node's in its component's definition (every instance shares it).
    applySeeds(changes) {
      for (const change of changes) {
        // Read again for each change: two instances of one definition name the same seed, moved once.
        const node = innerNodeAt(store.getState().doc, change.nodeId)?.node;
        const def = node && store.registry.get(node.type);
        const patch = def && seedChangePatch(def, node.params, change);
        if (patch === undefined) continue;
        store.setRunNodeParams(change.nodeId, patch, { label: 'move seeds on after the run', groupKey: SEEDS_GROUP, untimed: true, keepModified: true });
      }
    },
    pinSeed(nodeId, seed) {
      const inner = innerNodeAt(store.getState().doc, nodeId);
      const def = inner && store.registry.get(inner.node.type);
      if (!def) return;
      store.setRunNodeParams(nodeId, pinSeedPatch(def, inner.node.params, seed, inner.wiredPorts()), { label: 'pin seed' });
    },
    restore(workflow) {
      store.load(workflow, { record: true });
    },
  };
}
