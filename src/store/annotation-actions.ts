/**
 * Notes and groups: adding, editing, resizing. Each action is one undo step (typing in a note
 * merges into one while it goes on). Notes and groups are never run; see workflow/schema.ts.
 */
import { GROUP_COLORS, type GroupColor } from '../../workflow/format';
import type { WorkflowGroup, WorkflowNote } from '../../workflow/schema';
import type { Core } from './core';
import {
  anchorOf, contains, DEFAULT_GROUP_SIZE, DEFAULT_NOTE_SIZE, frameAround, freshId, groupAt, groupItem, itemOf, membership,
  nodeRect, noteItem, rectOf, setMembership, type Rect, NODE_WIDTH,
} from './frames';
import { freePosition, placedMark } from './free-place';
import { place } from './move-actions';
import type { LiveResize, XY } from './state';

export interface AddGroupOptions {
  title?: string;
  color?: GroupColor;
  /** Nodes and notes (canvas ids) the frame is drawn around and holds; none: an empty frame at `at`. */
  around?: readonly string[];
  at?: XY;
}

const size = (rect: Rect) => ({ width: Math.max(40, Math.round(rect.width)), height: Math.max(40, Math.round(rect.height)) });

export function createAnnotationActions(core: Core) {
  /** The rectangle of a node or note (canvas id) as it is in the document. */
  function rectOfItem(canvasId: string): Rect | undefined {
    const { view: doc, index } = core.get();
    const ref = itemOf(canvasId);
    if (ref.kind === 'node') {
      const node = index.nodeById.get(ref.id);
      return node && nodeRect(node.id, node.position, core.measure);
    }
    const item = ref.kind === 'note' ? doc.notes?.find((n) => n.id === ref.id) : doc.groups?.find((g) => g.id === ref.id);
    return item && rectOf(item);
  }

  const actions = {
    /**
     * Adds a note at `position` (its top-left corner), or with `free` at the nearest place there
     * where it covers no node or note; returns its id and selects it.
     */
    addNote(position: XY, text = '', options: { free?: boolean } = {}): string {
      const doc = core.get().view;
      const id = freshId(doc.notes ?? [], 'note');
      const at = options.free ? freePosition(place(position), DEFAULT_NOTE_SIZE, doc, core.measure) : position;
      const note: WorkflowNote = { id, position: place(at), size: { ...DEFAULT_NOTE_SIZE }, text };
      const owner = doc.groups && groupAt(doc.groups, anchorOf('note', note.position, note.size.width, note.size.height));
      core.change({ label: 'add note' }, (draft) => {
        (draft.notes ??= []).push(note);
        if (owner) setMembership(draft, noteItem(id), owner.id);
      }, { selection: { nodes: new Set([noteItem(id)]), edges: new Set() }, ...(options.free ? { placed: placedMark([noteItem(id)]) } : {}) });
      return id;
    },

    /** A note's text; keystrokes within a second of each other are one undo step. */
    setNoteText(id: string, text: string, options: { typing?: boolean } = {}): void {
      core.change({ label: 'edit note', ...(options.typing ? { groupKey: `note:${id}` } : {}) }, (draft) => {
        const note = draft.notes?.find((n) => n.id === id);
        if (note && note.text !== text) note.text = text;
      });
    },

    /**
     * Adds a frame: around the given nodes and notes (which join it, leaving any other group),
     * or empty at `at`. Returns its id and selects it.
     */
    addGroup(options: AddGroupOptions = {}): string {
      const doc = core.get().view;
      const members = (options.around ?? []).filter((key) => itemOf(key).kind !== 'group' && rectOfItem(key));
      const rects = members.map((key) => rectOfItem(key)!);
      const frame = rects.length > 0 ? frameAround(rects) : { ...place(options.at ?? { x: 0, y: 0 }), ...DEFAULT_GROUP_SIZE };
      const id = freshId(doc.groups ?? [], 'group');
      const group: WorkflowGroup = {
        id,
        title: options.title?.trim() || 'Group',
        color: options.color ?? 'blue',
        position: place(frame),
        size: size(frame),
        nodes: [],
        notes: [],
      };
      core.change({ label: 'add group' }, (draft) => {
        (draft.groups ??= []).push(group);
        for (const key of members) setMembership(draft, key, id);
      }, { selection: { nodes: new Set([groupItem(id)]), edges: new Set() } });
      return id;
    },

    setGroupTitle(id: string, title: string): void {
      core.change({ label: 'rename group' }, (draft) => {
        const group = draft.groups?.find((g) => g.id === id);
        const next = title.trim() || 'Group';
        if (group && group.title !== next) group.title = next;
      });
    },

    setGroupColor(id: string, color: GroupColor): void {
      if (!GROUP_COLORS.includes(color)) return;
      core.change({ label: 'change group colour' }, (draft) => {
        const group = draft.groups?.find((g) => g.id === id);
        if (group) group.color = color;
      });
    },

    /** A note or group being resized, drawn from here until `resizeItem` commits it. */
    setResize(live: LiveResize | null): void {
      core.patch({ resize: live });
    },

    /**
     * Gives a note or group (canvas id) a new frame, as one step. A resized group holds what
     * its frame now covers: nodes and notes inside it join, members left outside leave.
     */
    resizeItem(canvasId: string, rect: Rect): void {
      const ref = itemOf(canvasId);
      const position = place(rect);
      const extent = size(rect);
      const { view: doc } = core.get();
      const frame = { ...position, ...extent };
      const owners = membership(doc);
      const joins: string[] = [];
      const leaves: string[] = [];
      if (ref.kind === 'group') {
        const candidates = [
          ...doc.nodes.map((n) => ({ key: n.id, anchor: anchorOf('node', n.position, core.measure(n.id)?.width ?? NODE_WIDTH, 0) })),
          ...(doc.notes ?? []).map((n) => ({ key: noteItem(n.id), anchor: anchorOf('note', n.position, n.size.width, n.size.height) })),
        ];
        for (const { key, anchor } of candidates) {
          const owner = owners.get(key);
          const inside = contains(frame, anchor);
          if (inside && owner === undefined) joins.push(key);
          if (!inside && owner === ref.id) leaves.push(key);
        }
      }
      const label = ref.kind === 'group' ? 'resize group' : 'resize note';
      core.change({ label }, (draft) => {
        const item = ref.kind === 'group' ? draft.groups?.find((g) => g.id === ref.id) : draft.notes?.find((n) => n.id === ref.id);
        if (!item || ref.kind === 'node') return;
        item.position = position;
        item.size = extent;
        for (const key of joins) setMembership(draft, key, ref.id);
        for (const key of leaves) setMembership(draft, key, undefined);
      }, { resize: null });
    },
  };
  return actions;
}

export type AnnotationActions = ReturnType<typeof createAnnotationActions>;
