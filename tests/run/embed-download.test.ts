/** What a downloaded image carries: the workflow as it ran, with the seeds it used pinned. */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { prepareImageDownload } from '../../src/results/embed-download';
import { createRunController } from '../../src/run/controller';
import { extractWorkflow } from '../../workflow/embed';
import { loadWorkflow } from '../../workflow/load';
import { workflow } from '../workers/fakes';
import { countingUrls, inThreadClient, settings } from './helpers';

describe('a downloaded image', () => {
  it("carries the run's workflow with each random seed fixed to the one it used, and leaves the run's own workflow random", async () => {
    const controller = createRunController({ client: inThreadClient({ registry }).client, settings: () => settings, urls: countingUrls().urls });
    const ran = workflow([
      ['draw', 'text-to-image', { prompt: 'a kite', seed: null }],
      ['restyle', 'image-to-image', { prompt: 'in ink', seed: null, seed_mode: 'random' }],
      ['other', 'text-to-image', { prompt: 'not run', seed: null }],
    ], ['draw.image -> restyle.image']);
    await controller.run(ran, { mode: 'to', nodeId: 'restyle' });
    const runId = controller.state.results.get('restyle')!.runId;
    const run = controller.runOf(runId)!;
    expect([...run.seeds.keys()]).toEqual(['draw', 'restyle']);

    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).jpeg().toBuffer();
    const prepared = await prepareImageDownload({
      image: new Blob([jpeg], { type: 'image/jpeg' }), mime: 'image/jpeg', fileName: 'restyle.jpg',
      workflow: run.workflow, seeds: run.seeds, secrets: [], registry, pinSeeds: controller.pinSeeds,
    });
    expect(prepared).toMatchObject({ kind: 'ready', embedded: true });
    const text = extractWorkflow(prepared.kind === 'ready' ? prepared.bytes : new Uint8Array())!.workflow!;
    const nodes = loadWorkflow(text).workflow.nodes.map((n) => [n.id, n.params.seed, n.params.seed_mode]);
    expect(nodes).toEqual([
      ['draw', run.seeds.get('draw'), 'fixed'],
      ['restyle', run.seeds.get('restyle'), 'fixed'],
      // It did not run: nothing to pin.
      ['other', null, undefined],
    ]);
    expect(run.workflow.nodes.map((n) => n.params.seed)).toEqual([null, null, null]);
  });
});
