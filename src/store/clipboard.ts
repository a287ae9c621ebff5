/**
 * Copy, paste and duplicate. What is copied is a small workflow file (the selected nodes and the
 * wires between them), so a paste from another tab, another Atelier or a text editor goes through
 * the same loader as an opened file (paste-text.ts: sanitised, credentials dropped, unknown types
 * kept). What this tab copied itself is pasted from memory, without reading text back.
 */
import { createWorkflow, edgeIdFor, uniqueNodeId } from '../../workflow/create';
import type { WorkflowWarning } from '../../workflow/errors';
import { serializeWorkflow } from '../../workflow/serialize';
import type { Workflow, WorkflowEdge, WorkflowNode } from '../../workflow/schema';
import type { Core } from './core';
import type { XY } from './state';

export type PasteResult =
  | { ok: true; nodeIds: string[]; warnings: WorkflowWarning[] }
  | { ok: false; reason: string };

/** How far a paste without a pointer position lands from what was copied. */
export const PASTE_OFFSET = 40;

type Fragment = Pick<Workflow, 'nodes' | 'edges'>;

export function createClipboardActions(core: Core) {
  /** What this tab copied last, as a fragment and as the text put on the system clipboard. */
  let copied: { fragment: Fragment; text: string } | null = null;
  /** Repeated pastes of the same fragment without a position step further away, like most editors. */
  let repeat: { fragment: Fragment | null; count: number } = { fragment: null, count: 0 };

  function selection(): Fragment | null {
    const { doc, selection: sel } = core.get();
    const nodes = doc.nodes.filter((n) => sel.nodes.has(n.id));
    if (nodes.length === 0) return null;
    const edges = doc.edges.filter((e) => sel.nodes.has(e.source.node) && sel.nodes.has(e.target.node));
    return { nodes, edges };
  }

  /** Adds a fragment's nodes with fresh ids, at `at` (flow coordinates) or offset from where they were. */
  function pasteFragment(source: Fragment, at?: XY, warnings: WorkflowWarning[] = []): PasteResult {
    if (source.nodes.length === 0) return { ok: false, reason: 'the copied workflow has no nodes' };
    repeat = repeat.fragment === source ? { fragment: source, count: repeat.count + 1 } : { fragment: source, count: 1 };
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
    return { ok: true, nodeIds, warnings };
  }

  return {
    /** Copies the selected nodes and their inner wires; returns the text for the system clipboard. */
    copy(): string | null {
      const fragment = selection();
      if (!fragment) return null;
      const { doc } = core.get();
      const clip = createWorkflow({ title: `${fragment.nodes.length} node${fragment.nodes.length === 1 ? '' : 's'} from ${doc.metadata.title}` });
      const text = serializeWorkflow({ ...clip, ...fragment });
      copied = { fragment, text };
      repeat = { fragment, count: 0 };
      return text;
    },

    /**
     * Pastes what this tab copied. With `text` (the system clipboard), pastes it only if it is
     * what this tab copied; other text must go through `parsePaste` (paste-text.ts) first.
     */
    paste(at?: XY): PasteResult {
      if (!copied) return { ok: false, reason: 'nothing has been copied yet' };
      return pasteFragment(copied.fragment, at);
    },

    /** The text this tab last put on the clipboard, to recognise it when it comes back. */
    copiedText(): string | null {
      return copied?.text ?? null;
    },

    /** Pastes nodes read from elsewhere (a checked workflow, see paste-text.ts). */
    pasteWorkflow(source: Fragment, at?: XY, warnings: WorkflowWarning[] = []): PasteResult {
      return pasteFragment(source, at, warnings);
    },

    /** Copies and pastes the selection in one go, leaving the clipboard alone. */
    duplicate(): PasteResult {
      const fragment = selection();
      if (!fragment) return { ok: false, reason: 'select the nodes to duplicate first' };
      repeat = { fragment, count: 0 };
      return pasteFragment(fragment);
    },
  };
}

export type ClipboardActions = ReturnType<typeof createClipboardActions>;
