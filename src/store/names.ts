/**
 * Every node has a name of its own: a new, pasted or duplicated node whose name another node
 * already shows is numbered ("Text to image 2"), so a screen reader, a problem list or a
 * download names one node, never two.
 */
import type { WorkflowNode } from '../../workflow/schema';
import type { NodeRegistry } from '../../nodes/index';

/** The name a node shows: its title, else its type's title. */
export function shownName(node: Pick<WorkflowNode, 'type' | 'title'>, registry: Pick<NodeRegistry, 'get'>): string {
  return node.title || registry.get(node.type)?.title || node.type;
}

/** `name`, or the first of `name 2`, `name 3`… that no name in `taken` is. */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const base = name.replace(/ \d+$/, '');
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

/** The names `nodes` show. */
export function namesOf(nodes: readonly Pick<WorkflowNode, 'type' | 'title'>[], registry: Pick<NodeRegistry, 'get'>): Set<string> {
  return new Set(nodes.map((n) => shownName(n, registry)));
}
