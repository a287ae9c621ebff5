/**
 * Copy, paste and duplicate. What is copied is a small workflow file (the selected nodes and the
 * wires between them), so a paste from another tab, another Atelier or a text editor goes through
 * the same loader as an opened file: sanitised, credentials dropped, unknown types kept.
 */
import { createWorkflow, edgeIdFor, uniqueNodeId } from '../../workflow/create';
import { WorkflowError, type WorkflowWarning } from '../../workflow/errors';
import { loadWorkflow } from '../../workflow/load';
import { serializeWorkflow } from '../../workflow/serialize';
import type { WorkflowEdge, WorkflowNode } from '../../workflow/schema';
import type { Core } from './core';
import type { XY } from './state';

export type PasteResult =
  | { ok: true; nodeIds: string[]; warnings: WorkflowWarning[] }
  | { ok: false; reason: string };

/** How far a paste without a pointer position lands from what was copied. */
export const PASTE_OFFSET = 40;

export function createClipboardActions(core: Core) {
  /** What this tab copied last; the system clipboard may hold something newer. */
  let copied: string | null = null;
  let repeat = { text: '', count: 0 };

  function selectionAsFile(): string | null {
    const { doc, selection } = core.get();
    const nodes = doc.nodes.filter((n) => selection.nodes.has(n.id));
    if (nodes.length === 0) return null;
    const edges = doc.edges.filter((e) => selection.nodes.has(e.source.node) && selection.nodes.has(e.target.node));
    const clip = createWorkflow({ title: `${nodes.length} node${nodes.length === 1 ? '' : 's'} from ${doc.metadata.title}` });
    return serializeWorkflow({ ...clip, nodes, edges });
  }

  function paste(text: string | null = copied, at?: XY): PasteResult {
    if (text === null || text.trim() === '') return { ok: false, reason: 'nothing has been copied yet' };
    let loaded;
    try {
      loaded = loadWorkflow(text, { knownTypes: new Set(core.registry.list().map((d) => d.type)) });
    } catch (error) {
      const detail = error instanceof WorkflowError ? (error.issues[0] ? `${error.issues[0].path}: ${error.issues[0].message}` : error.message) : String(error);
      return { ok: false, reason: `the clipboard does not hold Atelier nodes (${detail})` };
    }
    const source = loaded.workflow;
    if (source.nodes.length === 0) return { ok: false, reason: 'the copied workflow has no nodes' };

    // Each paste of the same text without a position steps further away, like most editors.
    repeat = repeat.text === text ? { text, count: repeat.count + 1 } : { text, count: 1 };
    const minX = Math.min(...source.nodes.map((n) => n.position.x));
    const minY = Math.min(...source.nodes.map((n) => n.position.y));
    const shift = at ? { x: at.x - minX, y: at.y - minY } : { x: PASTE_OFFSET * repeat.count, y: PASTE_OFFSET * repeat.count };

    const taken: WorkflowNode[] = [...core.get().doc.nodes];
    const ids = new Map<string, string>();
    const nodes: WorkflowNode[] = source.nodes.map((node) => {
      const id = uniqueNodeId({ nodes: taken }, node.type);
      ids.set(node.id, id);
      const copy: WorkflowNode = { ...node, id, position: { x: node.position.x + shift.x, y: node.position.y + shift.y } };
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
    const nodeIds = nodes.map((n) => n.id);
    core.change({ label: nodes.length === 1 ? 'paste node' : `paste ${nodes.length} nodes` }, (draft) => {
      draft.nodes.push(...nodes);
      draft.edges.push(...edges);
    }, { selection: { nodes: new Set(nodeIds), edges: new Set() } });
    return { ok: true, nodeIds, warnings: loaded.warnings };
  }

  return {
    /** Copies the selected nodes and their inner wires; returns the text for the system clipboard. */
    copy(): string | null {
      const text = selectionAsFile();
      if (text !== null) {
        copied = text;
        repeat = { text, count: 0 };
      }
      return text;
    },
    /** Pastes `text` (default: what this tab copied) at `at` (flow coordinates) or offset. */
    paste,
    /** Copies and pastes the selection in one go, leaving the clipboard alone. */
    duplicate(): PasteResult {
      const text = selectionAsFile();
      if (text === null) return { ok: false, reason: 'select the nodes to duplicate first' };
      repeat = { text, count: 0 };
      return paste(text);
    },
  };
}

export type ClipboardActions = ReturnType<typeof createClipboardActions>;
