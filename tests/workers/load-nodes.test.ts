/**
 * The image nodes' own code (request rules, CLIP token count) is fetched on demand
 * (NodeDefinition.load), so the editor's page need not carry it: it must be loaded before an image
 * node is validated, and whatever validates or runs a workflow loads it itself.
 */
import { describe, expect, it, vi } from 'vitest';
import { createMemoryCache } from '../../workers/cache';
import { workflow } from './fakes';

/** The catalogue from fresh modules, whose image code has not been fetched. */
async function freshModules() {
  vi.resetModules();
  const [{ registry }, { loadNodeTypes }, { estimateRun }] = await Promise.all([
    import('../../nodes/index'),
    import('../../workers/load-nodes'),
    import('../../workers/estimate'),
  ]);
  return { registry, loadNodeTypes, estimateRun };
}

describe('node code fetched on demand', () => {
  it("an image node's checks need its code loaded, and say so before", async () => {
    const { registry, loadNodeTypes } = await freshModules();
    const def = registry.get('text-to-image')!;
    const params = { ...(def.params.parse({}) as Record<string, unknown>), engine: 'sd', width: 1024, height: 1024 };
    expect(() => def.validate!(params, new Set())).toThrow(/not loaded: await the node definitions' load\(\)/);
    await loadNodeTypes(workflow([['t', 'text-to-image']]), registry);
    expect(def.validate!(params, new Set()).map((i) => i.param)).toEqual(['width']);
  });

  it('an estimate (like a run) loads the node types of its workflow itself', async () => {
    const { registry, estimateRun } = await freshModules();
    // The resolution is the node's own rule (validate), not the schema's.
    const result = await estimateRun(workflow([['t', 'text-to-image', { engine: 'sd', width: 1024, height: 1024 }]]), registry, { mode: 'all' }, {
      cache: createMemoryCache(), settings: { chatModel: 'm' },
    });
    expect(result).toMatchObject({ ok: false, problems: [expect.objectContaining({ nodeId: 't', field: 'width' })] });
  });
});
