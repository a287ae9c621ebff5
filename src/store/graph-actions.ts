/**
 * Editing the graph: nodes, wires, positions, parameters and titles. Each action is one undo step
 * (typing in one field merges into one while it goes on).
 */
import type { PortKind } from '../../nodes/types';
import { portAccepts } from '../../nodes/values';
import { edgeIdFor, uniqueNodeId } from '../../workflow/create';
import type { PortRef, WorkflowEdge, WorkflowNode } from '../../workflow/schema';
import { canConnect, type ConnectCheck } from './can-connect';
import { inputsFor, outputsFor, portsOf } from './ports';
import type { Core } from './core';
import { isComponentNode } from '../../nodes/component-node';
import { anchorOf, groupAt, itemOf, NODE_WIDTH, NOMINAL_NODE_HEIGHT, setMembership, tidyLists } from './frames';
import { freePosition, placedMark } from './free-place';
import { place } from './move-actions';
import { freeName, namesOf } from './names';
import type { XY } from './state';

/** Wire the new node to an existing port as part of adding it (a wire dropped on empty canvas). */
export type AddConnection =
  /** An existing output feeds the new node's first input that takes its kind. */
  | { from: PortRef }
  /** The new node's first output of a fitting kind feeds an existing input. */
  | { to: PortRef };

export interface AddNodeOptions {
  params?: Record<string, unknown>;
  title?: string;
  connect?: AddConnection;
  /**
   * Find the nearest place to `position` where the node covers no other node or note (what the
   * editor's commands ask for); without it the node goes exactly where it is told.
   */
  free?: boolean;
  /** Joins the undo step of an edit made just before with this key (a component's definitions added first). */
  groupKey?: string;
}

export interface SetParamOptions {
  /** Keystrokes in a text field: consecutive ones within a second are one undo step. */
  typing?: boolean;
}


/** JSON has no `undefined`: keys holding it are left out so the document stays what a file holds. */
function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) out[k] = v;
  return out;
}

function deleteLabel(nodes: number, notes: number, groups: number): string {
  const parts = [[nodes, 'node'], [notes, 'note'], [groups, 'group']] as const;
  const named = parts.filter(([n]) => n > 0).map(([n, noun]) => (n === 1 ? noun : `${n} ${noun}s`));
  return named.length === 0 ? 'delete wire' : `delete ${named.join(' and ')}`;
}

export function createGraphActions(core: Core) {
  const nodeTitle = (node: WorkflowNode) => node.title || core.registry.get(node.type)?.title || node.type;
  /** Sets a true-or-absent flag on the nodes (clears it when all of them have it), as one step. */
  const toggleFlag = (ids: readonly string[], flag: 'bypass' | 'collapsed', [onWord, offWord]: readonly [string, string]) => {
    const nodes = ids.map((id) => core.get().index.nodeById.get(id)).filter((n) => n !== undefined);
    if (nodes.length === 0) return;
    const on = !nodes.every((n) => n[flag] === true);
    const which = new Set(nodes.map((n) => n.id));
    const label = `${on ? onWord : offWord} ${nodes.length === 1 ? nodeTitle(nodes[0]!) : `${nodes.length} nodes`}`;
    core.change({ label }, (draft) => {
      for (const node of draft.nodes) {
        if (!which.has(node.id)) continue;
        // Written only when on, as the file format does.
        if (on) node[flag] = true;
        else delete node[flag];
      }
    });
  };

  /** The port on `node` that completes a wire from/to `other`, if any fits. */
  function fittingPort(node: WorkflowNode, connection: AddConnection): PortRef | undefined {
    const ports = portsOf(node, core.registry);
    if ('from' in connection) {
      const source = core.get().index.nodeById.get(connection.from.node);
      const kind = source && portsOf(source, core.registry).outputs.find((p) => p.name === connection.from.port)?.kind;
      if (kind === undefined) return undefined;
      // Prefer a port that is not a parameter (an image input over a seed), then any that fits.
      const fit = ports.inputs.find((p) => p.param === undefined && portAccepts(p, kind)) ?? ports.inputs.find((p) => portAccepts(p, kind));
      return fit && { node: node.id, port: fit.name };
    }
    const target = core.get().index.nodeById.get(connection.to.node);
    const input = target && portsOf(target, core.registry).inputs.find((p) => p.name === connection.to.port);
    const fit = input && ports.outputs.find((p) => portAccepts(input, p.kind));
    return fit && { node: node.id, port: fit.name };
  }

  const actions = {
    /** Adds a node of `type` with its default parameters; returns its id. */
    addNode(type: string, position: XY, options: AddNodeOptions = {}): string {
      const def = core.registry.get(type);
      if (!def) throw new Error(`unknown node type '${type}'`);
      const parsed = def.params.safeParse(options.params ?? {});
      // A component instance holds only the values set on it: the rest follow its definition.
      const params = isComponentNode({ type }) ? { ...options.params }
        : definedOnly(parsed.success ? (parsed.data as Record<string, unknown>) : (options.params ?? {}));
      const id = uniqueNodeId(core.get().view, type);
      const size = core.measure(id, type) ?? { width: NODE_WIDTH, height: NOMINAL_NODE_HEIGHT };
      const at = options.free ? freePosition(place(position), size, core.get().view, core.measure) : position;
      // Named after its type, numbered when a node of that name is there already.
      const named = options.title ?? freeName(def.title, namesOf(core.get().view.nodes, core.registry));
      const node: WorkflowNode = { id, type, position: place(at), params, ...(named !== def.title ? { title: named } : {}) };

      let edge: WorkflowEdge | undefined;
      let replaces: WorkflowEdge | undefined;
      if (options.connect) {
        const port = fittingPort(node, options.connect);
        if (port) {
          const [from, to] = 'from' in options.connect ? [options.connect.from, port] : [port, options.connect.to];
          const doc = core.get().view;
          const check = canConnect({ nodes: [...doc.nodes, node], edges: doc.edges }, from, to, core.registry);
          if (check.ok) {
            edge = { id: edgeIdFor(from, to), source: from, target: to };
            replaces = check.replaces;
          }
        }
      }
      // Added inside a frame (double-click there), it belongs to that group.
      const owner = groupAt(core.get().view.groups ?? [], anchorOf('node', node.position, NODE_WIDTH, 0));
      core.change({ label: `add ${def.title}`, ...(options.groupKey === undefined ? {} : { groupKey: options.groupKey, untimed: true }) }, (draft) => {
        draft.nodes.push(node);
        if (owner) setMembership(draft, id, owner.id);
        if (replaces) draft.edges = draft.edges.filter((e) => e.id !== replaces.id);
        if (edge) draft.edges.push(edge);
      }, { selection: { nodes: new Set([id]), edges: new Set() }, ...(options.free ? { placed: placedMark([id]) } : {}) });
      return id;
    },

    /** Wires an output to an input (replacing the input's wire), or says why it cannot. */
    connect(from: PortRef, to: PortRef): ConnectCheck {
      const check = canConnect(core.get().view, from, to, core.registry);
      if (!check.ok) return check;
      const edge: WorkflowEdge = { id: edgeIdFor(from, to), source: { ...from }, target: { ...to } };
      core.change({ label: 'connect' }, (draft) => {
        if (check.replaces) draft.edges = draft.edges.filter((e) => e.id !== check.replaces!.id);
        draft.edges.push(edge);
      });
      // A parameter wired as an input keeps its port shown if the wire is later removed.
      const target = core.get().index.nodeById.get(to.node);
      const port = target && portsOf(target, core.registry).inputs.find((p) => p.name === to.port);
      if (port?.param !== undefined && !core.get().asInput.get(to.node)?.has(port.name)) {
        const asInput = new Map(core.get().asInput);
        asInput.set(to.node, new Set([...(asInput.get(to.node) ?? []), port.name]));
        core.patch({ asInput });
      }
      return check;
    },

    /** Moves one end of a wire to another port, as one step. */
    reconnect(edgeId: string, from: PortRef, to: PortRef): ConnectCheck {
      const doc = core.get().view;
      if (!doc.edges.some((e) => e.id === edgeId)) return { ok: false, reason: 'that wire no longer exists' };
      const check = canConnect({ nodes: doc.nodes, edges: doc.edges.filter((e) => e.id !== edgeId) }, from, to, core.registry);
      if (!check.ok) return check;
      const edge: WorkflowEdge = { id: edgeIdFor(from, to), source: { ...from }, target: { ...to } };
      core.change({ label: 'reconnect' }, (draft) => {
        draft.edges = draft.edges.filter((e) => e.id !== edgeId && e.id !== check.replaces?.id);
        draft.edges.push(edge);
      });
      return check;
    },

    disconnect(edgeIds: readonly string[]): void {
      const gone = new Set(edgeIds);
      core.change({ label: gone.size === 1 ? 'disconnect' : 'disconnect wires' }, (draft) => {
        draft.edges = draft.edges.filter((e) => !gone.has(e.id));
      });
    },

    /** Sets one parameter; `undefined` removes it (the node then uses its default). */
    setParam(nodeId: string, param: string, value: unknown, options: SetParamOptions = {}): void {
      actions.setParams(nodeId, { [param]: value }, options.typing ? { groupKey: `param:${nodeId}:${param}` } : {});
    },

    /** Sets several parameters as one step (a resolution sets width and height). */
    setParams(nodeId: string, values: Readonly<Record<string, unknown>>, options: { groupKey?: string; label?: string; untimed?: boolean; keepModified?: boolean } = {}): void {
      const node = core.get().index.nodeById.get(nodeId);
      if (!node) return;
      const names = Object.keys(values);
      const label = options.label ?? (names.length === 1 ? `change ${names[0]!}` : 'change parameters');
      const record = { label, ...(options.groupKey ? { groupKey: options.groupKey, untimed: options.untimed === true } : {}), ...(options.keepModified ? { keepModified: true } : {}) };
      core.change(record, (draft) => {
        const target = draft.nodes.find((n) => n.id === nodeId);
        if (!target) return;
        for (const [name, value] of Object.entries(values)) {
          if (value === undefined) delete target.params[name];
          else if (target.params[name] !== value) target.params[name] = value;
        }
      });
    },

    /**
     * Sets several parameters that change the node's ports (a ComfyUI workflow node's file) and
     * removes, in the same undo step, the wires to ports the node no longer has. How many it removed.
     */
    setParamsPruningWires(nodeId: string, values: Readonly<Record<string, unknown>>, label: string): number {
      const node = core.get().index.nodeById.get(nodeId);
      const def = node && core.registry.get(node.type);
      if (!node || !def) return 0;
      const next: Record<string, unknown> = { ...node.params, ...values };
      for (const [name, value] of Object.entries(values)) if (value === undefined) delete next[name];
      const inputs = new Set(inputsFor(def, next).map((p) => p.name));
      const outputs = new Set(outputsFor(def, next).map((p) => p.name));
      const stale = (e: WorkflowEdge) => (e.target.node === nodeId && !inputs.has(e.target.port)) || (e.source.node === nodeId && !outputs.has(e.source.port));
      let removed = 0;
      core.change({ label }, (draft) => {
        const target = draft.nodes.find((n) => n.id === nodeId);
        if (!target) return;
        for (const [name, value] of Object.entries(values)) {
          if (value === undefined) delete target.params[name];
          else target.params[name] = value;
        }
        const kept = draft.edges.filter((e) => !stale(e));
        removed = draft.edges.length - kept.length;
        if (removed > 0) draft.edges = kept;
      });
      return removed;
    },

    /** The user's own name for a node; empty goes back to the type's title. */
    setNodeTitle(nodeId: string, title: string): void {
      const trimmed = title.trim();
      core.change({ label: 'rename node' }, (draft) => {
        const node = draft.nodes.find((n) => n.id === nodeId);
        if (!node) return;
        if (trimmed === '' || trimmed === core.registry.get(node.type)?.title) delete node.title;
        else node.title = trimmed;
      });
    },

    setWorkflowTitle(title: string): void {
      const trimmed = title.trim() || 'Untitled workflow';
      core.change({ label: 'rename workflow' }, (draft) => {
        draft.metadata.title = trimmed;
      });
    },

    /** Deletes nodes, notes and groups by canvas id (a group's nodes stay), with their wires, as one step. */
    deleteNodes(ids: readonly string[]): void {
      actions.deleteItems(ids, []);
    },

    /** Deletes the selected nodes, notes, groups and wires, as one step. */
    deleteSelection(): void {
      const { nodes, edges } = core.get().selection;
      actions.deleteItems([...nodes], [...edges]);
    },

    deleteItems(canvasIds: readonly string[], edgeIds: readonly string[]): void {
      const refs = canvasIds.map(itemOf);
      const gone = { node: new Set<string>(), note: new Set<string>(), group: new Set<string>() };
      for (const ref of refs) gone[ref.kind].add(ref.id);
      const wires = new Set(edgeIds);
      if (refs.length === 0 && wires.size === 0) return;
      core.change({ label: deleteLabel(gone.node.size, gone.note.size, gone.group.size) }, (draft) => {
        draft.nodes = draft.nodes.filter((n) => !gone.node.has(n.id));
        draft.edges = draft.edges.filter((e) => !wires.has(e.id) && !gone.node.has(e.source.node) && !gone.node.has(e.target.node));
        if (draft.notes) draft.notes = draft.notes.filter((n) => !gone.note.has(n.id));
        if (draft.groups) {
          draft.groups = draft.groups.filter((g) => !gone.group.has(g.id));
          for (const group of draft.groups) {
            if (group.nodes.some((id) => gone.node.has(id))) group.nodes = group.nodes.filter((id) => !gone.node.has(id));
            if (group.notes.some((id) => gone.note.has(id))) group.notes = group.notes.filter((id) => !gone.note.has(id));
          }
        }
        tidyLists(draft);
        // The app's entries on these nodes go in the same step (core.ts, app-prune.ts).
      });
      const asInput = new Map(core.get().asInput);
      if ([...gone.node].some((id) => asInput.delete(id))) core.patch({ asInput });
    },

    /** Bypasses the nodes (or stops bypassing them, when all of them already are), as one step. */
    toggleBypass(ids: readonly string[]): void {
      toggleFlag(ids, 'bypass', ['bypass', 'stop bypassing']);
    },

    /**
     * Collapses the nodes to their title bar and ports (or expands them, when all of them already
     * are collapsed), as one step: view state saved in the file, undone like a move.
     */
    toggleCollapsed(ids: readonly string[]): void {
      toggleFlag(ids, 'collapsed', ['collapse', 'expand']);
    },

    /** How a node pairs the items of two or more lists: item by item (the default) or every combination; one step. */
    setFanOut(id: string, mode: 'zip' | 'cross'): void {
      const node = core.get().index.nodeById.get(id);
      if (!node || (node.fanOut ?? 'zip') === mode) return;
      core.change({ label: `${mode === 'cross' ? 'cross' : 'pair'} the lists of ${nodeTitle(node)}` }, (draft) => {
        const target = draft.nodes.find((n) => n.id === id);
        if (!target) return;
        // Written only for the cross product, as the file format does.
        if (mode === 'cross') target.fanOut = 'cross';
        else delete target.fanOut;
      });
    },

    /**
     * Shows or hides a parameter's input port. Hiding a connected one removes its wire (one step),
     * so the form's own value applies again.
     */
    setAsInput(nodeId: string, param: string, on: boolean): void {
      const current = core.get().asInput;
      const set = new Set(current.get(nodeId) ?? []);
      if (on) set.add(param);
      else set.delete(param);
      const asInput = new Map(current);
      if (set.size === 0) asInput.delete(nodeId);
      else asInput.set(nodeId, set);
      core.patch({ asInput });
      if (!on) {
        const wire = core.get().index.inbound.get(nodeId)?.get(param);
        if (wire) actions.disconnect([wire.id]);
      }
    },

    /** A node's display title: the user's, or its type's. */
    titleOf(nodeId: string): string {
      const node = core.get().index.nodeById.get(nodeId);
      return node ? nodeTitle(node) : nodeId;
    },

    /** The kind an output port carries, if the node and port exist. */
    outputKind(ref: PortRef): PortKind | undefined {
      const node = core.get().index.nodeById.get(ref.node);
      return node && portsOf(node, core.registry).outputs.find((p) => p.name === ref.port)?.kind;
    },
  };
  return actions;
}

export type GraphActions = ReturnType<typeof createGraphActions>;
