/**
 * React Flow nodes for the notes and groups of the document. Groups come first and sit below
 * everything (their frame lets clicks through to the canvas, only the title bar takes them);
 * objects are reused while unchanged, as for nodes (derive.ts).
 */
import type { Node } from '@xyflow/react';
import type { Workflow } from '../../workflow/schema';
import { groupItem, noteItem, type Rect } from '../store/frames';
import type { LiveResize, Selection, XY } from '../store/state';

export interface FrameData extends Record<string, unknown> {
  /** The id in the document (without the canvas prefix). */
  itemId: string;
}

export type FrameNode = Node<FrameData, 'note' | 'frame'>;

/** Below every node, even when selected (React Flow lifts a selected node by 1000). */
const FRAME_Z = -2000;

interface Entry {
  source: unknown;
  selected: boolean;
  drag: XY | undefined;
  live: Rect | undefined;
  out: FrameNode;
}

export function createFrameDeriver() {
  let cache = new Map<string, Entry>();

  function derive(doc: Workflow, selection: Selection, drag: ReadonlyMap<string, XY> | null, resize: LiveResize | null): { groups: FrameNode[]; notes: FrameNode[] } {
    const next = new Map<string, Entry>();
    const make = (kind: 'note' | 'frame', key: string, item: { id: string; position: XY; size: { width: number; height: number } }): FrameNode => {
      const selected = selection.nodes.has(key);
      const dragAt = drag?.get(key);
      const live = resize?.id === key ? resize.rect : undefined;
      const before = cache.get(key);
      if (before && before.source === item && before.selected === selected && before.drag === dragAt && before.live === live) {
        next.set(key, before);
        return before.out;
      }
      const rect = live ?? { ...(dragAt ?? item.position), ...item.size };
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
      next.set(key, { source: item, selected, drag: dragAt, live, out });
      return out;
    };
    const groups = (doc.groups ?? []).map((g) => make('frame', groupItem(g.id), g));
    const notes = (doc.notes ?? []).map((n) => make('note', noteItem(n.id), n));
    cache = next;
    return { groups, notes };
  }

  return derive;
}
