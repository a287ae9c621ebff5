/** The build's start chunk (scripts/start-chunk.ts): what the entry imports statically, nothing loaded later. */
import { describe, expect, it } from 'vitest';
import { startChunkName, type ModuleGraph, type ModuleGraphInfo } from '../../scripts/start-chunk';

/** A graph from `module: [static imports, dynamic imports]`; the first module is the entry. */
function graphOf(edges: Record<string, [string[], string[]]>): ModuleGraph {
  const ids = Object.keys(edges);
  const info = new Map<string, ModuleGraphInfo>(ids.map((id, i) => [id, {
    isEntry: i === 0,
    importedIds: edges[id]![0],
    importers: ids.filter((other) => edges[other]![0].includes(id)),
    dynamicImporters: ids.filter((other) => edges[other]![1].includes(id)),
  }]));
  return { getModuleInfo: (id) => info.get(id) ?? null };
}

describe('startChunkName', () => {
  const edges: Record<string, [string[], string[]]> = {
    main: [['app', 'react'], []],
    app: [['react', 'zod', 'cycle-a'], ['form', 'dialog']],
    'cycle-a': [['cycle-b'], []],
    'cycle-b': [['cycle-a'], []],
    react: [[], []],
    zod: [[], []],
    form: [['zod', 'widgets'], []],
    widgets: [['react'], []],
    dialog: [['widgets', 'viewer'], ['painter']],
    viewer: [[], []],
    painter: [['react'], []],
  };

  it('names what the entry imports statically, through cycles, and leaves lazily loaded modules alone', () => {
    const graph = graphOf(edges);
    const name = startChunkName('index');
    // Asked first about a lazily loaded module: the entry is still found above it.
    expect(name('painter', graph)).toBeNull();
    const named = Object.keys(edges).filter((id) => name(id, graph) === 'index');
    expect(named.sort()).toEqual(['app', 'cycle-a', 'cycle-b', 'main', 'react', 'zod']);
  });

  it('works the graph out again for another build', () => {
    const name = startChunkName('index');
    expect(name('viewer', graphOf(edges))).toBeNull();
    const promoted = { ...edges, app: [['react', 'zod', 'cycle-a', 'viewer'], ['form', 'dialog']] as [string[], string[]] };
    expect(name('viewer', graphOf(promoted))).toBe('index');
  });
});
