/**
 * Ids that are names a JavaScript object answers to on its own (`__proto__`, `constructor`,
 * `toString`, `prototype`…) are renamed when a file is opened. Atelier keeps its records of
 * nodes in Maps and prototype-less objects, so such an id is harmless inside it; but ids travel
 * on, as keys of the CLI's manifest, of the editor's saved state and of whatever reads a
 * workflow file next, and there a plain object would take `toString` for its own. Renaming
 * rather than refusing keeps the user's graph: edges, groups and the new id follow, and the
 * load report says what was renamed to what.
 */
import { renameAppNodes } from './app';
import { uniqueNodeId } from './create';
import type { WarningSink } from './errors';
import { isSafeKey } from './keys';
import { formatPath } from './path';
import type { Workflow } from './schema';

/** What was renamed: old node id → new one (the CLI's `--set` and `--to` still take the old). */
export type RenamedIds = ReadonlyMap<string, string>;

interface Identified {
  id: string;
}

/** A new id for each unsafe id of `items`, unique among them, made the way the editor makes ids. */
function renames(items: readonly Identified[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken: Identified[] = [...items];
  for (const item of items) {
    if (isSafeKey(item.id) || out.has(item.id)) continue;
    const id = uniqueNodeId({ nodes: taken } as Pick<Workflow, 'nodes'>, item.id);
    taken.push({ id });
    out.set(item.id, id);
  }
  return out;
}

const WHY = 'a name every JavaScript object already answers to';

/**
 * `workflow` with every unsafe node, edge, note and group id renamed (a warning each, naming the
 * node by title and type), and the node renames. The argument is left alone.
 */
export function renameUnsafeIds(workflow: Workflow, warnings: WarningSink): { workflow: Workflow; renamed: RenamedIds } {
  const nodeIds = renames(workflow.nodes);
  const edgeIds = renames(workflow.edges);
  const noteIds = renames(workflow.notes ?? []);
  const groupIds = renames(workflow.groups ?? []);
  if (nodeIds.size + edgeIds.size + noteIds.size + groupIds.size === 0) return { workflow, renamed: nodeIds };

  const node = (id: string) => nodeIds.get(id) ?? id;
  const out: Workflow = {
    ...workflow,
    nodes: workflow.nodes.map((n, i) => {
      const id = nodeIds.get(n.id);
      if (id === undefined) return n;
      const name = n.title === undefined || n.title.trim() === '' ? `a ${n.type} node` : `“${n.title}” (${n.type})`;
      warnings.add({
        code: 'unsafe-id-renamed',
        path: formatPath(['nodes', i, 'id']),
        nodeId: id,
        message: `${name} had the id '${n.id}', ${WHY}: renamed to '${id}'; its connections follow`,
      });
      return { ...n, id };
    }),
    edges: workflow.edges.map((e, i) => {
      const id = edgeIds.get(e.id);
      if (id !== undefined) {
        warnings.add({ code: 'unsafe-id-renamed', path: formatPath(['edges', i, 'id']), message: `the connection id '${e.id}' is ${WHY}: renamed to '${id}'` });
      }
      if (id === undefined && !nodeIds.has(e.source.node) && !nodeIds.has(e.target.node)) return e;
      return {
        id: id ?? e.id,
        source: { ...e.source, node: node(e.source.node) },
        target: { ...e.target, node: node(e.target.node) },
      };
    }),
  };
  if (workflow.notes !== undefined) {
    out.notes = workflow.notes.map((n, i) => {
      const id = noteIds.get(n.id);
      if (id === undefined) return n;
      warnings.add({ code: 'unsafe-id-renamed', path: formatPath(['notes', i, 'id']), message: `the note id '${n.id}' is ${WHY}: renamed to '${id}'` });
      return { ...n, id };
    });
  }
  if (workflow.groups !== undefined) {
    out.groups = workflow.groups.map((g, i) => {
      const id = groupIds.get(g.id);
      if (id !== undefined) {
        warnings.add({ code: 'unsafe-id-renamed', path: formatPath(['groups', i, 'id']), message: `the group id '${g.id}' of “${g.title}” is ${WHY}: renamed to '${id}'` });
      }
      return { ...g, id: id ?? g.id, nodes: g.nodes.map(node), notes: g.notes.map((n) => noteIds.get(n) ?? n) };
    });
  }
  if (workflow.app !== undefined) out.app = renameAppNodes(workflow.app, nodeIds);
  return { workflow: out, renamed: nodeIds };
}
