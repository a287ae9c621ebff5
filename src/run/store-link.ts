/** The EditorLink of the real editor: its store, its settings and its node registry. */
import type { WorkerSettings } from '../../workers/worker-api';
import { settingsProblems, settingsStore, workerSettingsFor, type EditorStore, type SettingsStore } from '../store';
import type { NodeDescription } from './context';
import type { EditorLink } from './editor-link';

/** Settings that cannot be run with; the message says which setting and why. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

export function storeLink(store: EditorStore, settings: SettingsStore = settingsStore, origin = location.origin): EditorLink {
  return {
    getWorkflow: () => store.getState().doc,
    subscribe: (listener) => store.subscribe(listener),
    getSettings(): WorkerSettings {
      const current = settings.get();
      const problems = settingsProblems(current);
      if (problems.length > 0) throw new SettingsError(`the settings stop the run: ${problems.join('; ')} (open Settings to fix)`);
      return workerSettingsFor(current, origin);
    },
    focusNode: (nodeId, field) => store.focusNode(nodeId, field),
    describeNode(nodeId): NodeDescription {
      const node = store.getState().index.nodeById.get(nodeId);
      if (!node) return { label: nodeId };
      const label = node.title?.trim() || store.registry.get(node.type)?.title || node.id;
      const filename = node.params.filename;
      return typeof filename === 'string' && filename.trim() !== '' ? { label, filename } : { label };
    },
  };
}
