/**
 * Components in the editor: make one from the selected nodes, unpack an instance back into its
 * nodes, open one to edit its definition (every instance follows) and go back out along the
 * breadcrumb. Make and Unpack are one undo step each; opening is view state, never undone, and
 * an edit inside is an ordinary step (core.ts hands the actions the opened definition).
 */
import { componentInUse, faceParamsProblem, setFaceParams } from '../../workflow/component-edit';
import { componentIdOf } from '../../workflow/components';
import { innerNodeAt, setInnerParams } from '../../workflow/inner-nodes';
import { makeComponent, unpackComponent } from '../../workflow/make-component';
import { COMPONENT_TYPE_PREFIX, type ComponentParam } from '../../workflow/schema';
import { definitionsFor, mergeDefinitions, type ComponentPack } from '../../workflow/component-file';
import type { AddNodeOptions, GraphActions } from './graph-actions';
import type { XY } from './state';
import type { Core } from './core';
import { itemOf } from './frames';

export interface MakeComponentOptions {
  name: string;
  /** Inner parameters to show on the face, with their names and labels. */
  shown?: readonly ComponentParam[];
  /** The nodes to make it of; the selected ones by default. */
  nodes?: Iterable<string>;
}

export type ComponentResult = { ok: true; nodeId: string } | { ok: false; reason: string };

/** One level of the breadcrumb: the workflow itself (level 0) or an opened component. */
export interface Crumb {
  level: number;
  label: string;
}

export function createComponentActions(core: Core, graph: Pick<GraphActions, 'addNode'>) {
  let adds = 0;
  const selectedNodes = (): string[] => [...core.get().selection.nodes].filter((id) => itemOf(id).kind === 'node' && core.get().index.nodeById.has(id));

  return {
    /** The selected nodes become one instance of a new component (Ctrl+Shift+G), as one undo step. */
    makeComponent(options: MakeComponentOptions): ComponentResult {
      const ids = options.nodes ? [...options.nodes].filter((id) => core.get().index.nodeById.has(id)) : selectedNodes();
      if (ids.length === 0) return { ok: false, reason: 'select the nodes to make a component of first' };
      const name = options.name.trim();
      if (name === '') return { ok: false, reason: 'the component needs a name' };
      const made = makeComponent(core.get().view, new Set(ids), { name, ...(options.shown ? { shown: options.shown } : {}) });
      const def = made.workflow.components!.at(-1)!;
      core.change({ label: 'make component' }, (draft) => {
        draft.nodes = made.workflow.nodes;
        draft.edges = made.workflow.edges;
        if (made.workflow.groups && draft.groups) draft.groups = made.workflow.groups;
        // The app belongs to the file's own graph: only a Make there can move its inputs.
        if (core.get().scope.length === 0 && made.workflow.app) draft.app = made.workflow.app;
        (draft.components ??= []).push(def);
      }, { selection: { nodes: new Set([made.instanceId]), edges: new Set() } });
      return { ok: true, nodeId: made.instanceId };
    },

    /** An instance becomes its inner nodes again, in place, as one undo step; they are selected. */
    unpackComponent(nodeId: string): ComponentResult {
      const node = core.get().index.nodeById.get(nodeId);
      const componentId = node && componentIdOf(node.type);
      if (!node || componentId === undefined) return { ok: false, reason: 'select a component to unpack' };
      const view = core.get().view;
      if (!view.components?.some((c) => c.id === componentId)) {
        return { ok: false, reason: `the definition of component '${componentId}' is not in this workflow, so there is nothing to unpack` };
      }
      const back = unpackComponent(view, nodeId);
      const before = new Set(view.nodes.map((n) => n.id));
      const fresh = back.nodes.filter((n) => !before.has(n.id) || n.id === nodeId).map((n) => n.id);
      core.change({ label: 'unpack component' }, (draft) => {
        draft.nodes = back.nodes;
        draft.edges = back.edges;
        if (core.get().scope.length === 0 && back.app) draft.app = back.app;
        // Gone only when nothing uses it any more, in this graph or another definition.
        // Inside a component the draft's nodes are the definition's: the file's own are as they were.
        const top = core.get().scope.length === 0 ? draft.nodes : core.get().doc.nodes;
        if (!componentInUse({ nodes: top, components: draft.components }, componentId) && draft.components) {
          draft.components = draft.components.filter((c) => c.id !== componentId);
          if (draft.components.length === 0) delete draft.components;
        }
      }, { selection: { nodes: new Set(fresh), edges: new Set() } });
      return { ok: true, nodeId: fresh[0] ?? nodeId };
    },

    /**
     * Adds an instance of a component from elsewhere (My components, an imported file) at `at`:
     * its definitions join the file's (renamed when their id is taken by other content), as one
     * undo step with the node. Returns the new node's id.
     */
    addComponent(pack: ComponentPack, at: XY, options: Omit<AddNodeOptions, 'groupKey'> = {}): string {
      const { components, mainId } = mergeDefinitions(core.get().doc.components, pack);
      const inside = definitionsFor(components, mainId).map((d) => d.id);
      const open = core.get().scope.find((level) => inside.includes(level.componentId));
      if (open) throw new Error(`'${pack.main.name}' cannot go inside component '${open.componentId}': a component cannot contain itself`);
      const groupKey = `add-component:${++adds}`;
      core.change({ label: `add ${pack.main.name}`, groupKey, untimed: true }, (draft) => {
        draft.components = components;
      });
      return graph.addNode(COMPONENT_TYPE_PREFIX + mainId, at, { ...options, groupKey });
    },

    /**
     * Changes which inner parameters component `componentId`'s face shows, and their labels (Edit
     * face), as one undo step: every instance follows, and loses its values of fields no longer shown.
     */
    setComponentFace(componentId: string, params: readonly ComponentParam[]): ComponentResult {
      const def = core.get().doc.components?.find((c) => c.id === componentId);
      if (!def) return { ok: false, reason: `the definition of component '${componentId}' is not in this workflow` };
      const problem = faceParamsProblem(def, params);
      if (problem !== undefined) return { ok: false, reason: problem };
      core.change({ label: `edit the face of ${def.name}`, whole: true }, (draft) => void setFaceParams(draft, componentId, params));
      return { ok: true, nodeId: componentId };
    },

    /**
     * Sets parameters of the node a run names by `flatId` (`restyle-1/draw` for an inner node of a
     * component, a node of the file's graph by its own id), whatever component is open, where the
     * file holds each value: the definition's inner node, shared by every instance, unless an
     * instance on the way sets its own (workflow/inner-nodes.ts). One undo step, or part of
     * `groupKey`'s; false when there is no such node.
     */
    setRunNodeParams(flatId: string, values: Readonly<Record<string, unknown>>, options: { label: string; groupKey?: string; untimed?: boolean; keepModified?: boolean }): boolean {
      if (innerNodeAt(core.get().doc, flatId) === undefined) return false;
      const { groupKey, untimed, ...rest } = options;
      core.change({ ...rest, ...(groupKey === undefined ? {} : { groupKey, untimed: untimed === true }), whole: true }, (draft) => void setInnerParams(draft, flatId, values));
      return true;
    },

    /** Shows an instance's definition on the canvas to edit it (double-click, Enter). */
    openComponent(nodeId: string): ComponentResult {
      const node = core.get().index.nodeById.get(nodeId);
      const componentId = node && componentIdOf(node.type);
      if (!node || componentId === undefined) return { ok: false, reason: 'select a component to open' };
      if (!core.get().doc.components?.some((c) => c.id === componentId)) {
        return { ok: false, reason: `the definition of component '${componentId}' is not in this workflow, so it cannot be opened` };
      }
      core.setScope([...core.get().scope, { componentId, instanceId: nodeId }]);
      return { ok: true, nodeId };
    },

    /** Goes back out to `level` of the breadcrumb (0: the workflow itself). */
    closeComponent(level = core.get().scope.length - 1): void {
      const { scope } = core.get();
      if (level < 0 || level >= scope.length) return;
      core.setScope(scope.slice(0, level));
    },

    /** The way in, outermost first: the workflow's title, then each opened component's name. */
    breadcrumb(): Crumb[] {
      const { doc, scope } = core.get();
      const names = new Map((doc.components ?? []).map((c) => [c.id, c.name]));
      return [
        { level: 0, label: doc.metadata.title || 'Workflow' },
        ...scope.map((s, i) => ({ level: i + 1, label: names.get(s.componentId) ?? s.componentId })),
      ];
    },
  };
}
