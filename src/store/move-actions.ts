/**
 * Moving things on the canvas: nodes, notes and groups, by canvas id. A group carries its nodes
 * and notes wherever it goes; a node or note dropped inside a frame joins that group, and one
 * dropped outside every frame leaves its group. A drag is shown live and committed as one step.
 */
import type { Draft } from 'immer';
import { MAX_COORDINATE } from '../../workflow/limits';
import type { Size, Workflow } from '../../workflow/schema';
import type { Core } from './core';
import {
  anchorOf, boundsOf, frameAround, groupAt, holdingFrame, itemOf, nodeRect, noteItem, rectOf, setMembership, NODE_WIDTH, type Rect,
} from './frames';
import type { XY } from './state';
import { keyedRecord } from '../../workflow/keys';

/** The room left below a node that grew, above the nodes it pushed down. */
const ROOM_GAP = 24;

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

const clamp = (v: number) => Math.max(-MAX_COORDINATE, Math.min(MAX_COORDINATE, Math.round(v)));
export const place = (p: XY): XY => ({ x: clamp(p.x), y: clamp(p.y) });

export interface MoveOptions {
  /** Moves within this key and a second of each other are one undo step (arrow keys). */
  groupKey?: string;
  label?: string;
  /** Whether moved nodes and notes join the frame they land in (true unless a layout moves them). */
  regroup?: boolean;
  /** A node that grew in place: its frame grows to hold it too, in the same step. */
  grown?: string;
  /** Made by Atelier, not the person (see RecordOptions.keepModified). */
  keepModified?: boolean;
}

export function createMoveActions(core: Core) {
  /** Members carried by a group during the current drag: they keep their group when it ends. */
  const carried = new Set<string>();

  /** `positions` plus the members of every group in it, moved by their group's offset. */
  function withMembers(positions: Readonly<Record<string, XY>>, from: (canvasId: string) => XY | undefined, into: Map<string, XY>, track: boolean): void {
    const { view: doc } = core.get();
    for (const [key, to] of Object.entries(positions)) {
      into.set(key, to);
      const ref = itemOf(key);
      if (ref.kind !== 'group') continue;
      const group = doc.groups?.find((g) => g.id === ref.id);
      if (!group) continue;
      const dx = to.x - group.position.x;
      const dy = to.y - group.position.y;
      const members = [...group.nodes, ...group.notes.map(noteItem)];
      for (const member of members) {
        // Own keys only: a member called 'constructor' is not in every record.
        if (Object.hasOwn(positions, member)) continue;
        const at = from(member);
        if (!at) continue;
        into.set(member, { x: at.x + dx, y: at.y + dy });
        if (track) carried.add(member);
      }
    }
  }

  const docPosition = (canvasId: string): XY | undefined => {
    const { view: doc, index } = core.get();
    const ref = itemOf(canvasId);
    if (ref.kind === 'node') return index.nodeById.get(ref.id)?.position;
    if (ref.kind === 'note') return doc.notes?.find((n) => n.id === ref.id)?.position;
    return doc.groups?.find((g) => g.id === ref.id)?.position;
  };

  /**
   * Puts each item where `positions` says; then, if asked, regroups the items in `regroup`. The
   * frames of what moved, and of the node `grown` (it got taller in place), grow to hold them.
   */
  function apply(draft: Draft<Workflow>, positions: ReadonlyMap<string, XY>, regroup: readonly string[], grown?: string): void {
    const nodes = new Map(draft.nodes.map((n) => [n.id, n]));
    for (const [key, to] of positions) {
      const ref = itemOf(key);
      const item = ref.kind === 'node' ? nodes.get(ref.id)
        : ref.kind === 'note' ? draft.notes?.find((n) => n.id === ref.id)
          : draft.groups?.find((g) => g.id === ref.id);
      if (!item) continue;
      const p = place(to);
      if (p.x !== item.position.x || p.y !== item.position.y) item.position = p;
    }
    const groups = draft.groups ?? [];
    if (groups.length === 0) return;
    for (const key of regroup) {
      const ref = itemOf(key);
      if (ref.kind === 'group') continue;
      let anchor: XY | undefined;
      if (ref.kind === 'node') {
        const node = nodes.get(ref.id);
        if (node) anchor = anchorOf('node', node.position, core.measure(key)?.width ?? NODE_WIDTH, 0);
      } else {
        const note = draft.notes?.find((n) => n.id === ref.id);
        if (note) anchor = anchorOf('note', note.position, note.size.width, note.size.height);
      }
      if (anchor) setMembership(draft, key, groupAt(groups, anchor)?.id);
    }
    // A frame grows to hold what was moved to (or past) its edge.
    for (const group of groups) {
      const touched = group.nodes.some((id) => id === grown || positions.has(id)) || group.notes.some((id) => positions.has(noteItem(id)));
      if (!touched) continue;
      const members = [
        ...group.nodes.flatMap((id) => {
          const node = nodes.get(id);
          return node ? [nodeRect(id, node.position, core.measure)] : [];
        }),
        ...group.notes.flatMap((id) => {
          const note = draft.notes?.find((n) => n.id === id);
          return note ? [rectOf(note)] : [];
        }),
      ];
      const frame = rectOf(group);
      const held = holdingFrame(frame, members);
      if (held === frame) continue;
      group.position = place(held);
      group.size = { width: held.width, height: held.height };
    }
  }

  const actions = {
    /**
     * Moves nodes, notes and groups (by canvas id) as one step: a finished drag, arrow keys, a
     * layout. A group's members move with it.
     */
    moveNodes(positions: Readonly<Record<string, XY>>, options: MoveOptions = {}): void {
      const all = new Map<string, XY>();
      withMembers(positions, docPosition, all, false);
      const direct = options.regroup === false ? [] : Object.keys(positions);
      const label = options.label ?? 'move';
      const record = { label, ...(options.groupKey ? { groupKey: options.groupKey } : {}), ...(options.keepModified ? { keepModified: true } : {}) };
      core.change(record, (draft) => apply(draft, all, direct, options.grown), { drag: null });
    },

    /** Positions during a drag: shown, not yet history. */
    dragNodes(positions: Readonly<Record<string, XY>>): void {
      const drag = new Map(core.get().drag ?? []);
      withMembers(positions, docPosition, drag, true);
      core.patch({ drag });
    },

    /** Ends a drag: the whole movement becomes one undo step, and what was dropped in a frame joins it. */
    endDrag(): void {
      const drag = core.get().drag;
      if (!drag) return;
      const direct = [...drag.keys()].filter((key) => !carried.has(key));
      carried.clear();
      core.change({ label: 'move' }, (draft) => apply(draft, drag, direct), { drag: null });
    },

    /**
     * Puts nodes and notes (by canvas id) where a layout says, as one step: notes of a group the
     * layout did not place keep their place in it, and each group's frame is refitted around its members.
     */
    arrange(positions: Readonly<Record<string, XY>>, label = 'auto-layout'): void {
      const { view: doc } = core.get();
      const moved = new Map(Object.entries(positions).filter(([key]) => itemOf(key).kind !== 'group'));
      const nodeAt = (id: string): Rect | undefined => {
        const node = core.get().index.nodeById.get(id);
        return node && nodeRect(id, moved.get(id) ?? node.position, core.measure);
      };
      const frames = new Map<string, Rect>();
      for (const group of doc.groups ?? []) {
        if (!group.nodes.some((id) => moved.has(id))) continue;
        const before = group.nodes.map((id) => core.get().index.nodeById.get(id)).filter((n) => n !== undefined)
          .map((n) => nodeRect(n.id, n.position, core.measure));
        const after = group.nodes.map(nodeAt).filter((r) => r !== undefined);
        if (after.length === 0 || before.length === 0) continue;
        // Notes keep their offset from the group's nodes.
        const [was, now] = [boundsOf(before), boundsOf(after)];
        const notes: Rect[] = [];
        for (const id of group.notes) {
          const note = doc.notes?.find((n) => n.id === id);
          if (!note) continue;
          const to = moved.get(noteItem(id)) ?? { x: note.position.x + now.x - was.x, y: note.position.y + now.y - was.y };
          moved.set(noteItem(id), to);
          notes.push({ ...to, ...note.size });
        }
        frames.set(group.id, frameAround([...after, ...notes]));
      }
      core.change({ label }, (draft) => {
        apply(draft, moved, []);
        for (const group of draft.groups ?? []) {
          const frame = frames.get(group.id);
          if (!frame) continue;
          group.position = place(frame);
          group.size = { width: frame.width, height: frame.height };
        }
      }, { drag: null });
    },

    /**
     * A node grew (its results arrived, a field opened): the nodes it now covers, which it did not
     * cover at its size `before`, move down below it, and so on down the column, and its frame
     * grows to hold it, as one step. Returns whether anything changed.
     */
    makeRoom(id: string, before: Size): boolean {
      const { index, view: doc, drag } = core.get();
      const grown = index.nodeById.get(id);
      if (!grown || drag) return false;
      const rect = nodeRect(id, grown.position, core.measure);
      if (rect.height <= before.height) return false;
      const was: Rect = { ...grown.position, ...before };
      const rects = new Map(doc.nodes.filter((n) => n.id !== id).map((n) => [n.id, nodeRect(n.id, n.position, core.measure)]));
      const moved = keyedRecord<XY>();
      const queue: Rect[] = [rect];
      const pushed = new Set<string>();
      while (queue.length > 0) {
        const above = queue.shift()!;
        for (const [other, r] of rects) {
          if (pushed.has(other) || !overlaps(above, r)) continue;
          // Nodes beside or above it that it already covered stay as the person left them; what
          // starts lower down goes below it.
          if (above === rect && overlaps(was, r) && r.y < rect.y + 1) continue;
          const to = { x: r.x, y: above.y + above.height + ROOM_GAP };
          moved[other] = to;
          pushed.add(other);
          const next = { ...r, ...to };
          rects.set(other, next);
          queue.push(next);
        }
      }
      const group = doc.groups?.find((g) => g.nodes.includes(id));
      const frame = group && rectOf(group);
      const outgrown = frame !== undefined && holdingFrame(frame, [rect]) !== frame;
      if (pushed.size === 0 && !outgrown) return false;
      // A node grows when its result arrives: moving the others aside is not the person's edit.
      actions.moveNodes(moved, { label: 'make room', regroup: false, grown: id, keepModified: true });
      return true;
    },

    cancelDrag(): void {
      carried.clear();
      core.patch({ drag: null });
    },
  };
  return actions;
}

export type MoveActions = ReturnType<typeof createMoveActions>;
