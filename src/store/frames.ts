/**
 * Notes and groups beside the nodes: how the canvas names them, where they are, and which group
 * holds what. On the canvas (React Flow, the selection, the drag map) a note is `note:<id>` and a
 * group `group:<id>`; a node keeps its plain id, which can never contain ':'.
 */
import type { Draft } from 'immer';
import type { Size, Workflow, WorkflowGroup, WorkflowNote } from '../../workflow/schema';
import type { XY } from './state';

export const NOTE_PREFIX = 'note:';
export const GROUP_PREFIX = 'group:';

export type ItemKind = 'node' | 'note' | 'group';

export interface ItemRef {
  kind: ItemKind;
  /** The id in the document (without the prefix). */
  id: string;
}

export const noteItem = (id: string): string => `${NOTE_PREFIX}${id}`;
export const groupItem = (id: string): string => `${GROUP_PREFIX}${id}`;

/** What a canvas id refers to. */
export function itemOf(canvasId: string): ItemRef {
  if (canvasId.startsWith(NOTE_PREFIX)) return { kind: 'note', id: canvasId.slice(NOTE_PREFIX.length) };
  if (canvasId.startsWith(GROUP_PREFIX)) return { kind: 'group', id: canvasId.slice(GROUP_PREFIX.length) };
  return { kind: 'node', id: canvasId };
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A node's drawn size by canvas id, when the canvas has measured it; for a node not drawn yet,
 * `type` lets the canvas answer with the size nodes of that type are drawn at.
 */
export type Measure = (canvasId: string, type?: string) => Size | undefined;

/** Nodes are drawn this wide (node.css); their height depends on the form. */
export const NODE_WIDTH = 300;
/** A node's height before it is measured: a typical form. */
export const NOMINAL_NODE_HEIGHT = 360;
/** The middle of a node's title bar, from its top: where a person holds it when dragging. */
const HEADER_MIDDLE = 18;
/** Room left around the items a new or refitted frame holds, and for its title bar. */
export const FRAME_PADDING = 30;
export const FRAME_HEADER = 44;

export const DEFAULT_NOTE_SIZE: Size = { width: 260, height: 160 };
export const DEFAULT_GROUP_SIZE: Size = { width: 480, height: 320 };

export function contains(rect: Rect, p: XY): boolean {
  return p.x >= rect.x && p.x <= rect.x + rect.width && p.y >= rect.y && p.y <= rect.y + rect.height;
}

export const rectOf = (item: { position: XY; size: Size }): Rect => ({ ...item.position, ...item.size });

/** A node's rectangle at `position`, measured or nominal. */
export function nodeRect(id: string, position: XY, measure: Measure): Rect {
  const size = measure(id);
  return { ...position, width: size?.width ?? NODE_WIDTH, height: size?.height ?? NOMINAL_NODE_HEIGHT };
}

/**
 * The point that decides which group an item is in: the middle of a node's title bar (its form's
 * height does not matter), the centre of a note.
 */
export function anchorOf(kind: 'node' | 'note', position: XY, width: number, height: number): XY {
  return kind === 'node' ? { x: position.x + width / 2, y: position.y + HEADER_MIDDLE } : { x: position.x + width / 2, y: position.y + height / 2 };
}

/** The smallest group whose frame holds `p`: frames drawn inside bigger ones win. */
export function groupAt(groups: readonly WorkflowGroup[], p: XY): WorkflowGroup | undefined {
  let best: WorkflowGroup | undefined;
  for (const group of groups) {
    if (!contains(rectOf(group), p)) continue;
    if (!best || group.size.width * group.size.height < best.size.width * best.size.height) best = group;
  }
  return best;
}

/** The bounding box of `rects` (which must not be empty). */
export function boundsOf(rects: readonly Rect[]): Rect {
  const left = Math.min(...rects.map((r) => r.x));
  const top = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.width));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** A frame around `rects` with room for its title bar. */
export function frameAround(rects: readonly Rect[]): Rect {
  const box = boundsOf(rects);
  return {
    x: Math.round(box.x - FRAME_PADDING),
    y: Math.round(box.y - FRAME_PADDING - FRAME_HEADER),
    width: Math.round(box.width + 2 * FRAME_PADDING),
    height: Math.round(box.height + 2 * FRAME_PADDING + FRAME_HEADER),
  };
}

/** Room a frame keeps around what it holds: at its sides and bottom, and above (its title bar). */
const HOLD_EDGE = 12;
const HOLD_TOP = 40;

/**
 * The frame that holds `members` (their boxes, with a little room, below the title bar): `frame`
 * grown where a member reaches past its edge, never shrunk. The same rectangle when it already does.
 */
export function holdingFrame(frame: Rect, members: readonly Rect[]): Rect {
  if (members.length === 0) return frame;
  const need = members.map((m) => ({ x: m.x - HOLD_EDGE, y: m.y - HOLD_TOP, width: m.width + 2 * HOLD_EDGE, height: m.height + HOLD_TOP + HOLD_EDGE }));
  const grown = boundsOf([frame, ...need]);
  const same = grown.x === frame.x && grown.y === frame.y && grown.width === frame.width && grown.height === frame.height;
  return same ? frame : { x: Math.floor(grown.x), y: Math.floor(grown.y), width: Math.ceil(grown.width), height: Math.ceil(grown.height) };
}

/** Which group holds each node and note, by canvas id. */
export function membership(doc: Pick<Workflow, 'groups'>): Map<string, string> {
  const owner = new Map<string, string>();
  for (const group of doc.groups ?? []) {
    for (const id of group.nodes) owner.set(id, group.id);
    for (const id of group.notes) owner.set(noteItem(id), group.id);
  }
  return owner;
}

/** Moves a node or note (by canvas id) into `groupId`, or out of every group when undefined. */
export function setMembership(draft: Draft<Workflow>, canvasId: string, groupId: string | undefined): void {
  const ref = itemOf(canvasId);
  if (ref.kind === 'group') return;
  const list = ref.kind === 'node' ? 'nodes' : 'notes';
  for (const group of draft.groups ?? []) {
    const at = group[list].indexOf(ref.id);
    if (group.id === groupId) {
      if (at < 0) group[list].push(ref.id);
    } else if (at >= 0) {
      group[list].splice(at, 1);
    }
  }
}

/** Removes notes and groups lists that became empty, so the file does not carry `[]`. */
export function tidyLists(draft: Draft<Workflow>): void {
  if (draft.notes?.length === 0) delete draft.notes;
  if (draft.groups?.length === 0) delete draft.groups;
}

export function noteById(doc: Pick<Workflow, 'notes'>, id: string): WorkflowNote | undefined {
  return doc.notes?.find((n) => n.id === id);
}

export function groupById(doc: Pick<Workflow, 'groups'>, id: string): WorkflowGroup | undefined {
  return doc.groups?.find((g) => g.id === id);
}

/** An id `stem-N` not taken by any of `taken`. */
export function freshId(taken: Iterable<{ id: string }>, stem: string): string {
  const used = new Set([...taken].map((t) => t.id));
  for (let n = 1; ; n++) {
    const id = `${stem}-${n}`;
    if (!used.has(id)) return id;
  }
}
