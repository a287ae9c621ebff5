/**
 * The checks on a file's components that no field can make alone: unique ids, inner graphs that
 * hold together (by the same rules as the file's own graph), a face whose ports and shown
 * parameters name inner nodes that exist, and no component that contains itself, directly or
 * through others. A definition missing for an instance is not a problem here: the instance opens as
 * a placeholder that keeps its data, like a node of an unknown type.
 */
import type { Workflow, WorkflowEdge, WorkflowNode } from './schema';

interface CrossIssue {
  path: (string | number)[];
  message: string;
}

/** The rules of the file's own graph, given by schema.ts (crossCheck), for the inner graphs. */
export type GraphCheck = (graph: { nodes: WorkflowNode[]; edges: WorkflowEdge[] }) => CrossIssue[];

const PREFIX = 'component:';

/** Every problem with `workflow.components`, each with its path in the file. */
export function checkComponents(workflow: Pick<Workflow, 'components'>, checkGraph: GraphCheck): CrossIssue[] {
  const issues: CrossIssue[] = [];
  const components = workflow.components ?? [];
  const index = new Map<string, number>();
  components.forEach((def, i) => {
    const at = (...path: (string | number)[]) => ['components', i, ...path];
    const first = index.get(def.id);
    if (first === undefined) index.set(def.id, i);
    else issues.push({ path: at('id'), message: `duplicate component id '${def.id}' (also components[${first}])` });
    for (const issue of checkGraph(def)) issues.push({ path: at(...issue.path), message: issue.message });

    const inner = new Set(def.nodes.map((n) => n.id));
    const fedInside = new Set(def.edges.map((e) => JSON.stringify([e.target.node, e.target.port])));
    const fedFrom = new Map<string, string>();
    const unique = (list: 'inputs' | 'outputs' | 'params') => {
      const seen = new Map<string, number>();
      (def[list] ?? []).forEach((item, j) => {
        const earlier = seen.get(item.name);
        if (earlier === undefined) seen.set(item.name, j);
        else issues.push({ path: at(list, j, 'name'), message: `duplicate name '${item.name}' (also ${list}[${earlier}])` });
      });
    };
    unique('inputs');
    unique('outputs');
    unique('params');
    (def.inputs ?? []).forEach((input, j) => input.targets.forEach((target, k) => {
      const path = at('inputs', j, 'targets', k);
      if (!inner.has(target.node)) return void issues.push({ path, message: `no inner node '${target.node}'` });
      const key = JSON.stringify([target.node, target.port]);
      if (fedInside.has(key)) return void issues.push({ path, message: `input '${target.port}' of inner node '${target.node}' already has an inner edge` });
      const other = fedFrom.get(key);
      if (other !== undefined) return void issues.push({ path, message: `input '${target.port}' of inner node '${target.node}' is already fed by input '${other}'` });
      fedFrom.set(key, input.name);
    }));
    (def.outputs ?? []).forEach((output, j) => {
      if (!inner.has(output.source.node)) issues.push({ path: at('outputs', j, 'source', 'node'), message: `no inner node '${output.source.node}'` });
    });
    (def.params ?? []).forEach((param, j) => {
      if (!inner.has(param.node)) issues.push({ path: at('params', j, 'node'), message: `no inner node '${param.node}'` });
    });
  });
  issues.push(...checkContainment(workflow));
  return issues;
}

/** A component that contains itself, directly or through others, named with the way round. */
function checkContainment(workflow: Pick<Workflow, 'components'>): CrossIssue[] {
  const uses = new Map<string, string[]>();
  const position = new Map<string, number>();
  (workflow.components ?? []).forEach((def, i) => {
    if (position.has(def.id)) return;
    position.set(def.id, i);
    uses.set(def.id, [...new Set(def.nodes.filter((n) => n.type.startsWith(PREFIX)).map((n) => n.type.slice(PREFIX.length)))]);
  });
  const issues: CrossIssue[] = [];
  // Depth-first with colours; each component on a cycle is reported once, with the cycle.
  const state = new Map<string, 'open' | 'done'>();
  const reported = new Set<string>();
  const visit = (id: string, trail: string[]) => {
    state.set(id, 'open');
    for (const next of uses.get(id) ?? []) {
      if (!uses.has(next)) continue;
      if (state.get(next) === 'open') {
        const cycle = [...trail.slice(trail.indexOf(next)), next];
        if (!reported.has(next)) {
          reported.add(next);
          const how = cycle.length === 2 ? 'contains an instance of itself' : `contains itself through ${cycle.map((c) => `'${c}'`).join(' › ')}`;
          issues.push({ path: ['components', position.get(next)!, 'nodes'], message: `component '${next}' ${how}` });
        }
      } else if (state.get(next) === undefined) {
        visit(next, [...trail, next]);
      }
    }
    state.set(id, 'done');
  };
  for (const id of uses.keys()) if (state.get(id) === undefined) visit(id, [id]);
  return issues;
}
