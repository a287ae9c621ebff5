import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { createRunController } from '../../src/run/controller';
import type { EditorLink } from '../../src/run/editor-link';
import { createEstimator, type EstimateState } from '../../src/run/estimator';
import type { Workflow } from '../../workflow/schema';
import { workflow } from '../workers/fakes';
import { countingUrls, inThreadClient, settings } from './helpers';

/** A link over a document the test replaces, telling listeners as the store would. */
function editableLink(initial: Workflow) {
  let doc = initial;
  let broken: string | undefined;
  const listeners = new Set<() => void>();
  const tell = () => listeners.forEach((l) => l());
  const link = {
    registry,
    getWorkflow: () => doc,
    subscribe: (l: () => void) => (listeners.add(l), () => listeners.delete(l)),
    getSettings: () => {
      if (broken) throw new Error(broken);
      return settings;
    },
  } as unknown as EditorLink;
  return {
    link,
    set(next: Workflow) {
      doc = next;
      tell();
    },
    breakSettings(reason: string) {
      broken = reason;
      tell();
    },
    /** A change that is not the document's (a selection). */
    poke: tell,
  };
}

const drawing = (prompt: string) => workflow([['draw', 'text-to-image', { prompt, seed: 3 }]]);

function setup(doc: Workflow) {
  const fake = inThreadClient({ registry });
  const editable = editableLink(doc);
  // As in the editor: the runs and the estimates read the settings through the link.
  const controller = createRunController({ client: fake.client, settings: () => editable.link.getSettings(), urls: countingUrls().urls });
  const estimator = createEstimator(controller, editable.link, 10);
  const seen: EstimateState[] = [];
  estimator.state.subscribe(() => seen.push(estimator.state.get()));
  const ready = (apiCalls: number) =>
    expect.poll(() => {
      const s = estimator.state.get();
      return s.status === 'ready' && !s.stale && s.estimate.ok ? s.estimate.totals.apiCalls : undefined;
    }).toBe(apiCalls);
  return { ...fake, ...editable, controller, estimator, seen, ready };
}

describe('estimator', () => {
  it('estimates once the graph is quiet, marks the figures stale at a change, and asks again after a run', async () => {
    const { estimator, set, poke, controller, seen, ready, image } = setup(drawing('a kite'));
    const stop = estimator.start();
    await ready(1);
    expect(image.calls).toHaveLength(0);

    const asked = seen.length;
    poke();
    await new Promise((r) => setTimeout(r, 30));
    expect(seen).toHaveLength(asked);

    set(drawing('a boat'));
    expect(estimator.state.get()).toMatchObject({ status: 'ready', stale: true });
    await ready(1);
    expect(estimator.state.get()).toMatchObject({ workflow: { nodes: [{ params: { prompt: 'a boat' } }] } });

    await controller.run(drawing('a boat'));
    await ready(0);
    stop();
  });

  it('asks again when the cache is cleared: the nodes it answered for cost calls again', async () => {
    const { estimator, controller, ready, image } = setup(drawing('a kite'));
    const stop = estimator.start();
    await controller.run(drawing('a kite'));
    await ready(0);
    expect(image.calls).toHaveLength(1);

    await controller.clearCache();
    expect(estimator.state.get()).toMatchObject({ status: 'ready', stale: true });
    await ready(1);
    expect(estimator.state.get()).toMatchObject({ estimate: { totals: { cachedNodes: 0 } } });
    stop();

    // A stopped estimator no longer listens.
    await controller.run(drawing('a kite'));
    await controller.clearCache();
    await new Promise((r) => setTimeout(r, 30));
    expect(estimator.state.get()).toMatchObject({ status: 'ready', estimate: { totals: { apiCalls: 1 } }, stale: false });
  });

  it('says why there is no estimate when the settings stop runs', async () => {
    const { estimator, breakSettings } = setup(drawing('a kite'));
    const stop = estimator.start();
    breakSettings('the settings stop the run: direct mode needs an image URL');
    await expect.poll(() => estimator.state.get()).toEqual({ status: 'unavailable', reason: 'the settings stop the run: direct mode needs an image URL' });
    stop();
  });
});
