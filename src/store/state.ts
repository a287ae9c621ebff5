/**
 * The editor's state: the workflow document (the single source of truth, and the only part with
 * history) beside UI-only state that never enters a file or the undo stack.
 */
import type { Workflow } from '../../workflow/schema';
import type { GraphIndex } from './graph-index';

export interface XY {
  x: number;
  y: number;
}

export interface Selection {
  /** Nodes by id, notes and groups by canvas id (`note:<id>`, `group:<id>`; see frames.ts). */
  nodes: ReadonlySet<string>;
  edges: ReadonlySet<string>;
}

/** A request to bring a node (and one of its fields) into view; `seq` makes repeats distinct. */
export interface FocusRequest {
  nodeId: string;
  field?: string;
  seq: number;
}

/**
 * Items just added where there was room for them (a new node or note, a paste, a duplicate):
 * the canvas brings them into view if they landed outside it. `seq` makes repeats distinct.
 */
export interface PlacedItems {
  /** Canvas ids. */
  ids: readonly string[];
  seq: number;
}

export interface HistoryFlags {
  canUndo: boolean;
  canRedo: boolean;
  undoLabel?: string;
  redoLabel?: string;
}

/** One opened component on the way in from the workflow (the breadcrumb). */
export interface ScopeLevel {
  /** The definition being shown and edited. */
  componentId: string;
  /** The instance it was opened from (its values are not the definition's). */
  instanceId: string;
}

export interface EditorState {
  /** The workflow as it would be saved. */
  readonly doc: Workflow;
  /**
   * The components opened, outermost first; empty at the workflow itself. Never saved or undone:
   * an undo that takes away an opened definition closes it.
   */
  readonly scope: readonly ScopeLevel[];
  /**
   * The graph the canvas shows and graph actions edit: `doc` itself, or with a component open its
   * definition's nodes and edges (no notes, groups or app) beside the file's metadata and components.
   */
  readonly view: Workflow;
  /** Lookups derived from `view`; entries keep their identity while unchanged. */
  readonly index: GraphIndex;
  readonly selection: Selection;
  /**
   * Positions of nodes, notes and groups (by canvas id) being dragged, not yet committed to `doc`
   * (one undo step at drag end). A dragged group's members are in it too.
   */
  readonly drag: ReadonlyMap<string, XY> | null;
  /** A note or group being resized: its frame as drawn, committed when the resize ends. */
  readonly resize: LiveResize | null;
  /**
   * Parameters shown as input ports although not connected ("as input"), by node. A connected
   * param port is always shown. Kept with the autosave, never in the file.
   */
  readonly asInput: ReadonlyMap<string, ReadonlySet<string>>;
  readonly history: HistoryFlags;
  /** Changes since the last Save or Open. */
  readonly dirty: boolean;
  readonly focus: FocusRequest | null;
  readonly placed: PlacedItems | null;
  /** Increases with every change to `doc` or `asInput`; what autosave watches. */
  readonly revision: number;
  /** Increases each time a whole workflow is loaded (Open, New, Examples): the canvas fits it. */
  readonly loads: number;
}

export interface LiveResize {
  id: string;
  rect: { x: number; y: number; width: number; height: number };
}

export const EMPTY_SELECTION: Selection = { nodes: new Set(), edges: new Set() };
