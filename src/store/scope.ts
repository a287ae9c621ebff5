/**
 * An opened component: the canvas shows its definition's inner graph, and every graph action
 * (add, wire, move, paste, delete, rename, set a value) edits that definition, so every instance
 * changes with it. The store's document stays the whole file (what is saved and run); actions see
 * the opened graph through `view` and a draft whose `nodes` and `edges` are the definition's.
 */
import type { Draft } from 'immer';
import type { ComponentDefinition, Workflow } from '../../workflow/schema';
import type { ScopeLevel } from './state';

const GRAPH_KEYS = new Set<PropertyKey>(['nodes', 'edges']);
/** A definition holds no notes, groups or app: inside one, actions on them change nothing. */
const ROOT_ONLY = new Set<PropertyKey>(['notes', 'groups', 'app']);

/** The definition of the innermost opened component, if it still exists. */
export function openedDefinition(doc: Pick<Workflow, 'components'>, scope: readonly ScopeLevel[]): ComponentDefinition | undefined {
  const last = scope.at(-1);
  return last === undefined ? undefined : doc.components?.find((c) => c.id === last.componentId);
}

/** The scope without the levels whose definition is gone (an undo took it away). */
export function pruneScope(doc: Pick<Workflow, 'components'>, scope: readonly ScopeLevel[]): readonly ScopeLevel[] {
  const ids = new Set((doc.components ?? []).map((c) => c.id));
  const kept = scope.findIndex((level) => !ids.has(level.componentId));
  return kept === -1 ? scope : scope.slice(0, kept);
}

/** What the canvas shows: the document, or the opened definition's graph with the file's metadata and components. */
export function viewOf(doc: Workflow, scope: readonly ScopeLevel[]): Workflow {
  const def = openedDefinition(doc, scope);
  if (def === undefined) return doc;
  return {
    format: doc.format,
    version: doc.version,
    metadata: doc.metadata,
    nodes: def.nodes,
    edges: def.edges,
    ...(doc.components ? { components: doc.components } : {}),
  };
}

/**
 * A draft of the document that graph actions edit as if the definition were the workflow: its
 * `nodes` and `edges` are the definition's, notes, groups and app read as absent and take no
 * writes, and everything else (metadata, components) is the document's.
 */
export function scopedDraft(root: Draft<Workflow>, def: Draft<ComponentDefinition>): Draft<Workflow> {
  return new Proxy(root, {
    get(target, key) {
      if (GRAPH_KEYS.has(key)) return Reflect.get(def, key);
      if (ROOT_ONLY.has(key)) return undefined;
      return Reflect.get(target, key);
    },
    set(target, key, value) {
      if (GRAPH_KEYS.has(key)) return Reflect.set(def, key, value);
      if (ROOT_ONLY.has(key)) return true;
      return Reflect.set(target, key, value);
    },
    deleteProperty(target, key) {
      if (GRAPH_KEYS.has(key) || ROOT_ONLY.has(key)) return true;
      return Reflect.deleteProperty(target, key);
    },
    has(target, key) {
      if (GRAPH_KEYS.has(key)) return true;
      if (ROOT_ONLY.has(key)) return false;
      return Reflect.has(target, key);
    },
  });
}
