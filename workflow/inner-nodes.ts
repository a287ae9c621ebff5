/**
 * A node of the flattened workflow (flatten.ts) found again in the file: `restyle-1/img2img` is
 * node `img2img` of the definition instance `restyle-1` uses. Runs report flat ids; what a run
 * leaves behind (seeds moved on, a seed pinned) must land where the file holds the value, which
 * is the outermost place that sets it: an instance's shown value when the instance sets one, else
 * the definition's inner node, shared by every instance (as an edit inside an opened component is).
 */
import { afterDefinitionEdit } from './component-edit';
import { layShown } from './flatten';
import { COMPONENT_TYPE_PREFIX, type ComponentDefinition, type Workflow, type WorkflowEdge, type WorkflowNode } from './schema';

/** Where a parameter's value is held: a node of the file's graph (`component` absent) or of a definition. */
export interface ParamHome {
  component?: string;
  node: string;
  param: string;
}

/** One step of the way in: a node and the graph it is in (a definition, or the file's graph). */
interface Step {
  def?: ComponentDefinition;
  node: WorkflowNode;
}

export interface InnerNode {
  /** The node as the flattened workflow has it: its id flat, its params with the shown values of the instances on the way laid over. */
  node: WorkflowNode;
  /** The instances on the way in, outermost first, by title (else their definition's name): empty for a node of the file's graph. */
  names: string[];
  /** Where the value of `param` is held: the outermost instance on the way that sets it, else the node itself. */
  home(param: string): ParamHome;
  /** The node's input ports a wire fills in the flattened workflow (an inner wire, or one into the face of every instance on the way). */
  wiredPorts(): Set<string>;
}

const componentOf = (type: string) => (type.startsWith(COMPONENT_TYPE_PREFIX) ? type.slice(COMPONENT_TYPE_PREFIX.length) : undefined);

/** The way to a flat id through the file, outermost first, or undefined when it leads nowhere. */
function stepsTo(workflow: Pick<Workflow, 'nodes' | 'components'>, flatId: string): Step[] | undefined {
  const defs = new Map<string, ComponentDefinition>();
  for (const def of workflow.components ?? []) if (!defs.has(def.id)) defs.set(def.id, def);
  const steps: Step[] = [];
  let nodes: readonly WorkflowNode[] = workflow.nodes;
  let def: ComponentDefinition | undefined;
  const parts = flatId.split('/');
  for (const [index, id] of parts.entries()) {
    const node = nodes.find((n) => n.id === id);
    if (node === undefined) return undefined;
    steps.push(def === undefined ? { node } : { def, node });
    if (index === parts.length - 1) break;
    const inner = componentOf(node.type);
    def = inner === undefined ? undefined : defs.get(inner);
    if (def === undefined) return undefined;
    nodes = def.nodes;
  }
  return steps;
}

/** Whether `port` of `node` in the graph of step `index` is fed by a wire, from inside or through every face on the way. */
function fed(steps: readonly Step[], edgesOf: (index: number) => readonly WorkflowEdge[], index: number, node: string, port: string): boolean {
  if (edgesOf(index).some((e) => e.target.node === node && e.target.port === port)) return true;
  const def = steps[index]!.def;
  if (def === undefined || index === 0) return false;
  return def.inputs.some((input) => input.targets.some((t) => t.node === node && t.port === port) && fed(steps, edgesOf, index - 1, steps[index - 1]!.node.id, input.name));
}

/**
 * The node of `workflow` whose flat id is `flatId` (a top-level node's is its own id), or undefined
 * when there is none: a step that is not there, or an instance whose definition is missing.
 */
export function innerNodeAt(workflow: Pick<Workflow, 'nodes' | 'edges' | 'components'>, flatId: string): InnerNode | undefined {
  const steps = stepsTo(workflow, flatId);
  if (steps === undefined) return undefined;
  const last = steps.length - 1;
  // Laid over as a run's flattening does: each instance's params (already laid over) onto its definition's node.
  let params = steps[0]!.node.params;
  for (let i = 1; i <= last; i++) params = layShown(steps[i]!.def!, steps[i]!.node, params);
  const leaf = steps[last]!.node;
  const bypass = steps.some((s) => s.node.bypass === true);
  // An instance's name is its title, else its definition's (the definition of step i + 1).
  const names = steps.slice(0, last).map((s, i) => s.node.title ?? steps[i + 1]!.def!.name);
  return {
    node: { ...leaf, id: flatId, params, ...(bypass ? { bypass: true } : {}) },
    names,
    home(param) {
      let home: ParamHome = { ...(steps[last]!.def ? { component: steps[last]!.def.id } : {}), node: leaf.id, param };
      let name = param;
      for (let i = last; i >= 1; i--) {
        const shown = steps[i]!.def!.params.find((p) => p.node === steps[i]!.node.id && p.param === name);
        if (shown === undefined) break;
        name = shown.name;
        const outer = steps[i - 1]!;
        if (Object.hasOwn(outer.node.params, name)) home = { ...(outer.def ? { component: outer.def.id } : {}), node: outer.node.id, param: name };
      }
      return home;
    },
    wiredPorts() {
      const edgesOf = (index: number) => steps[index]!.def?.edges ?? workflow.edges;
      const ports = new Set<string>();
      for (const edge of edgesOf(last)) if (edge.target.node === leaf.id) ports.add(edge.target.port);
      const def = steps[last]!.def;
      if (def !== undefined) {
        for (const input of def.inputs) {
          for (const t of input.targets) if (t.node === leaf.id && fed(steps, edgesOf, last - 1, steps[last - 1]!.node.id, input.name)) ports.add(t.port);
        }
      }
      return ports;
    },
  };
}

/**
 * Sets parameters of the node whose flat id is `flatId` where `root` holds each value (`home`),
 * whatever graph that is; each definition written to has its hash and revision moved on, as an
 * edit inside it does. Mutates `root` (an immer draft in the editor); false when there is no such node.
 */
export function setInnerParams(root: Workflow, flatId: string, values: Readonly<Record<string, unknown>>): boolean {
  const inner = innerNodeAt(root, flatId);
  if (inner === undefined) return false;
  const edited = new Set<string>();
  for (const [param, value] of Object.entries(values)) {
    const home = inner.home(param);
    const graph = home.component === undefined ? root : root.components?.find((c) => c.id === home.component);
    const node = graph?.nodes.find((n) => n.id === home.node);
    if (node === undefined) continue;
    if (value === undefined) {
      if (!Object.hasOwn(node.params, home.param)) continue;
      delete node.params[home.param];
    } else if (node.params[home.param] !== value) {
      node.params[home.param] = value;
    } else continue;
    if (home.component !== undefined) edited.add(home.component);
  }
  for (const id of edited) afterDefinitionEdit(root, id);
  return true;
}
