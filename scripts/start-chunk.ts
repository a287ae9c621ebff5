/**
 * One chunk for everything the editor's entry imports statically. Rolldown otherwise splits each
 * module shared by the entry and a lazily loaded part (React, zod, the API schemas) into a chunk
 * of its own; those all load at start anyway, and one file gzips better than eight and costs
 * fewer requests (about 3 kB gzipped less at start). What loads later is left as it was.
 */

/** What Rolldown's chunking context tells of a module (a subset of its ModuleInfo). */
export interface ModuleGraphInfo {
  isEntry: boolean;
  importers: readonly string[];
  dynamicImporters: readonly string[];
  importedIds: readonly string[];
}

export interface ModuleGraph {
  getModuleInfo(id: string): ModuleGraphInfo | null;
}

/**
 * A `codeSplitting.groups` name function: `name` for modules the entries import statically,
 * directly or not, else null (left to Rolldown's own splitting). The set is computed once per
 * chunking pass (Rolldown hands one context object to every call of a pass), from the first
 * module asked about: up through every importer to the entries, then down through static imports.
 */
export function startChunkName(name: string): (id: string, graph: ModuleGraph) => string | null {
  const atStart = new WeakMap<ModuleGraph, Set<string>>();
  return (id, graph) => {
    let reached = atStart.get(graph);
    if (!reached) {
      reached = staticallyReachable(graph, entriesAbove(graph, id));
      atStart.set(graph, reached);
    }
    return reached.has(id) ? name : null;
  };
}

function entriesAbove(graph: ModuleGraph, id: string): string[] {
  const seen = new Set([id]);
  const queue = [id];
  const entries: string[] = [];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    const info = graph.getModuleInfo(next);
    if (!info) continue;
    if (info.isEntry) entries.push(next);
    for (const up of [...info.importers, ...info.dynamicImporters]) {
      if (!seen.has(up)) {
        seen.add(up);
        queue.push(up);
      }
    }
  }
  return entries;
}

function staticallyReachable(graph: ModuleGraph, entries: readonly string[]): Set<string> {
  const reached = new Set(entries);
  const queue = [...entries];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const down of graph.getModuleInfo(next)?.importedIds ?? []) {
      if (!reached.has(down)) {
        reached.add(down);
        queue.push(down);
      }
    }
  }
  return reached;
}
