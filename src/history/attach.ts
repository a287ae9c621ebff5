/**
 * Connects the run controller to the run history: every fresh node result goes to the recorder,
 * which is loaded with the first one (a page that never runs never loads it).
 */
import type { RunController } from '../run/controller';
import type { EditorLink } from '../run/editor-link';
import type { Recorder } from './recorder';

/** Starts recording; returns how to stop. */
export function attachHistory(controller: RunController, link: EditorLink): () => void {
  let recorder: Promise<Recorder> | undefined;
  return controller.listen((event, run) => {
    if (event.type !== 'node-done' || event.cached) return;
    // Taken now: the node's next run may replace it before the recorder looks.
    const result = controller.state.results.get(event.nodeId);
    if (!result || result.runId !== run.runId) return;
    recorder ??= Promise.all([import('./recorder'), import('./store')])
      .then(([{ createRecorder }, { historyStore }]) => createRecorder({ store: historyStore(), registry: link.registry, pinSeeds: controller.pinSeeds }));
    void recorder
      .then((r) => r.record(event.nodeId, run, result))
      .catch((error: unknown) => console.error(`the run history could not keep the output of '${event.nodeId}'`, error));
  });
}
