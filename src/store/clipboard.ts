/**
 * Copy, paste and duplicate. What is copied is a small workflow file (the selected nodes, the
 * wires between them, the selected notes and groups with what they hold), so a paste from another
 * tab, another window or a text editor goes through the same loader as an opened file
 * (paste-text.ts: sanitised, credentials dropped, unknown types kept). What this tab copied itself
 * is pasted from memory, without reading text back. Pasted ids are always fresh. The text that
 * goes to the system clipboard is the export path's (src/canvas/copy-out.ts: the credential
 * check, then the file's own serialisation), which tells the store what it wrote.
 */
import { createWorkflow, edgeIdFor, uniqueNodeId } from '../../workflow/create';
import { componentIdOf } from '../../workflow/components';
import { definitionsFor, mergeDefinitions } from '../../workflow/component-file';
import { COMPONENT_TYPE_PREFIX } from '../../workflow/schema';
import type { WorkflowWarning } from '../../workflow/errors';
import type { Workflow, WorkflowEdge, WorkflowGroup, WorkflowMetadata, WorkflowNode, WorkflowNote } from '../../workflow/schema';
import type { Core } from './core';
import { freshId, groupItem, itemOf, nodeRect, noteItem, rectOf } from './frames';
import { freeShift, occupied, placedMark } from './free-place';
import { freeName, namesOf, shownName } from './names';
import type { XY } from './state';

export type PasteResult =
  | { ok: true; /** New nodes, notes and groups, by canvas id. */ nodeIds: string[]; warnings: WorkflowWarning[] }
  | { ok: false; reason: string };

export interface PlaceOptions {
  /**
   * Move what is pasted on to the nearest place where it covers no node or note already there
   * (what the editor's commands ask for); without it, it goes exactly where it is told.
   */
  free?: boolean;
}

/** How far each repeated paste of the same thing lands from the one before, so pastes never stack. */
export const PASTE_OFFSET = 40;

export type Fragment = Pick<Workflow, 'nodes' | 'edges' | 'notes' | 'groups'>;

/** What the fragment holds and where: two pastes of the same text have the same signature. */
function signature(source: Fragment): string {
  const items = [...source.nodes, ...(source.notes ?? []), ...(source.groups ?? [])];
  return items.map((i) => `${i.id}@${i.position.x},${i.position.y}`).join(';');
}

export function createClipboardActions(core: Core) {
  /** What this tab copied last, as a fragment and as the text put on the system clipboard. */
  let copied: { fragment: Fragment; text: string | null } | null = null;
  /** The last paste: repeating it (same fragment, same spot) steps further away each time. */
  let repeat = { signature: '', anchor: '', count: 0 };

  function selection(): Fragment | null {
    const { view: doc, selection: sel } = core.get();
    const groups = (doc.groups ?? []).filter((g) => sel.nodes.has(groupItem(g.id)));
    // A copied group brings what it holds.
    const held = new Set(groups.flatMap((g) => [...g.nodes, ...g.notes.map(noteItem)]));
    const wanted = (key: string) => sel.nodes.has(key) || held.has(key);
    const nodes = doc.nodes.filter((n) => wanted(n.id));
    const notes = (doc.notes ?? []).filter((n) => wanted(noteItem(n.id)));
    if (nodes.length + notes.length + groups.length === 0) return null;
    const nodeIds = new Set(nodes.map((n) => n.id));
    const noteIds = new Set(notes.map((n) => n.id));
    const edges = doc.edges.filter((e) => nodeIds.has(e.source.node) && nodeIds.has(e.target.node));
    const copiedGroups = groups.map((g) => ({ ...g, nodes: g.nodes.filter((id) => nodeIds.has(id)), notes: g.notes.filter((id) => noteIds.has(id)) }));
    return { nodes, edges, ...(notes.length ? { notes } : {}), ...(copiedGroups.length ? { groups: copiedGroups } : {}) };
  }

  /**
   * Adds a fragment's items with fresh ids, at `at` (flow coordinates) or offset from where they
   * were; `verb` names the undo step ("Undo duplicate node").
   */
  function pasteFragment(source: Fragment, at?: XY, warnings: WorkflowWarning[] = [], verb: 'paste' | 'duplicate' = 'paste', options: PlaceOptions = {}): PasteResult {
    const sourceNotes = source.notes ?? [];
    const sourceGroups = source.groups ?? [];
    const all = [...source.nodes, ...sourceNotes, ...sourceGroups];
    if (all.length === 0) return { ok: false, reason: 'the copied workflow has no nodes' };
    const minX = Math.min(...all.map((n) => n.position.x));
    const minY = Math.min(...all.map((n) => n.position.y));
    const sig = signature(source);
    const anchor = at ? `${Math.round(at.x)},${Math.round(at.y)}` : '';
    repeat = repeat.signature === sig && repeat.anchor === anchor
      ? { ...repeat, count: repeat.count + 1 }
      : { signature: sig, anchor, count: at ? 0 : 1 };
    const step = PASTE_OFFSET * repeat.count;
    const offset = at ? { x: at.x - minX + step, y: at.y - minY + step } : { x: step, y: step };
    const { view: doc } = core.get();
    // With `free`, the whole fragment moves on from there to the nearest place where none of its
    // nodes and notes covers one already there.
    const room = options.free
      ? freeShift([
        ...source.nodes.map((n) => nodeRect(n.id, n.position, (id) => core.measure(id, n.type))),
        ...sourceNotes.map(rectOf),
      ].map((r) => ({ ...r, x: r.x + offset.x, y: r.y + offset.y })), occupied(doc, core.measure))
      : { x: 0, y: 0 };
    const shift = { x: offset.x + room.x, y: offset.y + room.y };
    const moved = (p: XY): XY => ({ x: Math.round(p.x + shift.x), y: Math.round(p.y + shift.y) });

    const taken: WorkflowNode[] = [...doc.nodes];
    const names = namesOf(doc.nodes, core.registry);
    const ids = new Map<string, string>();
    const nodes: WorkflowNode[] = source.nodes.map((node) => {
      const id = uniqueNodeId({ nodes: taken }, node.type);
      ids.set(node.id, id);
      // A copy beside its original is numbered, so the two have names of their own.
      const name = freeName(shownName(node, core.registry), names);
      names.add(name);
      const copy: WorkflowNode = { ...node, id, position: moved(node.position), ...(name !== shownName(node, core.registry) ? { title: name } : {}) };
      taken.push(copy);
      return copy;
    });
    const edges: WorkflowEdge[] = [];
    for (const edge of source.edges) {
      const s = ids.get(edge.source.node);
      const t = ids.get(edge.target.node);
      if (s === undefined || t === undefined) continue;
      const from = { node: s, port: edge.source.port };
      const to = { node: t, port: edge.target.port };
      edges.push({ id: edgeIdFor(from, to), source: from, target: to });
    }
    const noteIds = new Map<string, string>();
    const takenNotes: { id: string }[] = [...(doc.notes ?? [])];
    const notes: WorkflowNote[] = sourceNotes.map((note) => {
      const id = freshId(takenNotes, 'note');
      noteIds.set(note.id, id);
      takenNotes.push({ id });
      return { ...note, id, position: moved(note.position) };
    });
    const takenGroups: { id: string }[] = [...(doc.groups ?? [])];
    const groups: WorkflowGroup[] = sourceGroups.map((group) => {
      const id = freshId(takenGroups, 'group');
      takenGroups.push({ id });
      return {
        ...group,
        id,
        position: moved(group.position),
        nodes: group.nodes.flatMap((n) => ids.get(n) ?? []),
        notes: group.notes.flatMap((n) => noteIds.get(n) ?? []),
      };
    });

    const newIds = [...nodes.map((n) => n.id), ...notes.map((n) => noteItem(n.id)), ...groups.map((g) => groupItem(g.id))];
    core.change({ label: stepLabel(verb, newIds) }, (draft) => {
      draft.nodes.push(...nodes);
      draft.edges.push(...edges);
      if (notes.length > 0) (draft.notes ??= []).push(...notes);
      if (groups.length > 0) (draft.groups ??= []).push(...groups);
    }, { selection: { nodes: new Set(newIds), edges: new Set() }, ...(options.free ? { placed: placedMark(newIds) } : {}) });
    return { ok: true, nodeIds: newIds, warnings };
  }

  return {
    /**
     * Copies the selected items and their inner wires; returns them as a small workflow, for the
     * check and serialisation before they leave the page, or null when nothing is selected.
     */
    copy(): Workflow | null {
      const fragment = selection();
      if (!fragment) return null;
      copied = { fragment, text: null };
      repeat = { signature: signature(fragment), anchor: '', count: 0 };
      // Component instances travel with their definitions, so another tab can paste them whole.
      const clip = fragmentWorkflow(fragment, core.get().view.metadata);
      const used = [...new Set(fragment.nodes.map((n) => componentIdOf(n.type)).filter((id) => id !== undefined))];
      const components = [...new Map(used.flatMap((id) => definitionsFor(core.get().doc.components, id)).map((d) => [d.id, d])).values()];
      return components.length === 0 ? clip : { ...clip, version: 2, components };
    },

    /** The text the last copy put on the system clipboard (the copy with credentials removed, if so). */
    setCopiedText(text: string): void {
      if (copied) copied = { ...copied, text };
    },

    /** Pastes what this tab copied last, at `at` or offset from where it was (`free`: see PlaceOptions). */
    paste(at?: XY, options: PlaceOptions = {}): PasteResult {
      if (!copied) return { ok: false, reason: 'nothing has been copied yet' };
      return pasteFragment(copied.fragment, at, [], 'paste', options);
    },

    /** The text this tab last put on the clipboard, to recognise it when it comes back. */
    copiedText(): string | null {
      return copied?.text ?? null;
    },

    /** Pastes items read from elsewhere (a checked workflow, see paste-text.ts). */
    pasteWorkflow(source: Fragment & Pick<Workflow, 'components'>, at?: XY, warnings: WorkflowWarning[] = [], options: PlaceOptions = {}): PasteResult {
      if (!source.components?.length) return pasteFragment(source, at, warnings, 'paste', options);
      // The definitions its instances need join the file's first (the same content is reused, other content renamed).
      let components = core.get().doc.components;
      const types = new Map<string, string>();
      for (const def of source.components) {
        const merged = mergeDefinitions(components, { main: def, definitions: definitionsFor(source.components, def.id) });
        components = merged.components;
        types.set(COMPONENT_TYPE_PREFIX + def.id, COMPONENT_TYPE_PREFIX + merged.mainId);
      }
      core.change({ label: 'paste components' }, (draft) => {
        draft.components = components;
      });
      const nodes = source.nodes.map((n) => ({ ...n, type: types.get(n.type) ?? n.type }));
      return pasteFragment({ ...source, nodes }, at, warnings, 'paste', options);
    },

    /** Copies and pastes the selection in one go, leaving the clipboard alone. */
    duplicate(options: PlaceOptions = {}): PasteResult {
      const fragment = selection();
      if (!fragment) return { ok: false, reason: 'select the nodes to duplicate first' };
      repeat = { signature: '', anchor: '', count: 0 };
      return pasteFragment(fragment, undefined, [], 'duplicate', options);
    },
  };
}

/** The copied items as a workflow, dated as the document they come from: copying twice gives the same text. */
function fragmentWorkflow(fragment: Fragment, from: WorkflowMetadata): Workflow {
  const count = fragment.nodes.length + (fragment.notes?.length ?? 0) + (fragment.groups?.length ?? 0);
  const clip = createWorkflow({ title: `${count} item${count === 1 ? '' : 's'} from ${from.title}` });
  return { ...clip, metadata: { ...clip.metadata, created: from.created, modified: from.modified }, ...fragment };
}

function stepLabel(verb: string, ids: readonly string[]): string {
  if (ids.length !== 1) return `${verb} ${ids.length} items`;
  return `${verb} ${itemOf(ids[0]!).kind}`;
}

export type ClipboardActions = ReturnType<typeof createClipboardActions>;
