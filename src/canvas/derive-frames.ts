/**
 * React Flow nodes for the notes and groups of the document. Groups come first and sit below
 * everything (their frame lets clicks through to the canvas, only the title bar takes them);
 * objects are reused while unchanged, as for nodes (derive.ts).
 */
import type { Node } from '@xyflow/react';
import type { Size, Workflow, WorkflowGroup } from '../../workflow/schema';
import { groupItem, holdingFrame, noteItem, rectOf, type Rect } from '../store/frames';
import type { LiveResize, Selection, XY } from '../store/state';

export interface FrameData extends Record<string, unknown> {
  /** The id in the document (without the canvas prefix). */
  itemId: string;
}

export type FrameNode = Node<FrameData, 'note' | 'frame'>;

/** Drawn sizes of nodes by id: measured, or estimated for a node not drawn yet. */
export type Sizes = Pick<ReadonlyMap<string, Size>, 'get'>;

/** Below every node, even when selected (React Flow lifts a selected node by 1000). */
const FRAME_Z = -2000;

interface Entry {
  source: unknown;
  selected: boolean;
  drag: XY | undefined;
  live: Rect | undefined;
  /** The frame as grown to hold its members, as a string to compare. */
  held: string;
  out: FrameNode;
}

/**
 * Where a group's frame is drawn: as the document says, grown to hold its members as they are
 * drawn (a node that grew with its results, one moved to the edge). Members being dragged on
 * their own do not count (they may be leaving); the ones carried by a dragged group do.
 */
function heldFrame(group: WorkflowGroup, base: Rect, doc: Workflow, nodeAt: (id: string) => XY | undefined,
  drag: ReadonlyMap<string, XY> | null, measured: Sizes): Rect {
  const key = groupItem(group.id);
  const own = drag?.get(key);
  const members: Rect[] = [];
  for (const id of group.nodes) {
    const size = measured.get(id);
    const moving = drag?.get(id);
    if (!size || (moving && !own)) continue;
    const at = moving ?? nodeAt(id);
    if (at) members.push({ ...at, ...size });
  }
  for (const id of group.notes) {
    const note = doc.notes?.find((n) => n.id === id);
    const moving = drag?.get(noteItem(id));
    if (!note || (moving && !own)) continue;
    members.push({ ...rectOf(note), ...(moving ?? {}) });
  }
  return holdingFrame(base, members);
}

export function createFrameDeriver() {
  let cache = new Map<string, Entry>();

  function derive(doc: Workflow, selection: Selection, drag: ReadonlyMap<string, XY> | null, resize: LiveResize | null,
    measured: Sizes = new Map()): { groups: FrameNode[]; notes: FrameNode[] } {
    const next = new Map<string, Entry>();
    let positions: Map<string, XY> | undefined;
    const nodeAt = (id: string) => (positions ??= new Map(doc.nodes.map((n) => [n.id, n.position]))).get(id);
    const make = (kind: 'note' | 'frame', key: string, item: { id: string; position: XY; size: { width: number; height: number } }): FrameNode => {
      const selected = selection.nodes.has(key);
      const dragAt = drag?.get(key);
      const live = resize?.id === key ? resize.rect : undefined;
      const base = { ...(dragAt ?? item.position), ...item.size };
      const grown = kind === 'frame' && !live ? heldFrame(item as WorkflowGroup, base, doc, nodeAt, drag, measured) : base;
      const held = `${grown.x},${grown.y},${grown.width},${grown.height}`;
      const before = cache.get(key);
      if (before && before.source === item && before.selected === selected && before.drag === dragAt && before.live === live && before.held === held) {
        next.set(key, before);
        return before.out;
      }
      const rect = live ?? grown;
      const out: FrameNode = {
        id: key,
        type: kind,
        position: { x: rect.x, y: rect.y },
        width: rect.width,
        height: rect.height,
        data: before?.out.data.itemId === item.id ? before.out.data : { itemId: item.id },
        selected,
        ariaLabel: kind === 'frame' ? `Group: ${(item as { title?: string }).title ?? ''}` : 'Note',
        ...(kind === 'frame' ? { zIndex: FRAME_Z, dragHandle: '.frame-header' } : {}),
      };
      next.set(key, { source: item, selected, drag: dragAt, live, held, out });
      return out;
    };
    const groups = (doc.groups ?? []).map((g) => make('frame', groupItem(g.id), g));
    const notes = (doc.notes ?? []).map((n) => make('note', noteItem(n.id), n));
    cache = next;
    return { groups, notes };
  }

  return derive;
}
