/**
 * A ComfyUI UI-format workflow (`workflow.json`: nodes with positional `widgets_values`, and a
 * links array) turned into the API format, as the ComfyUI frontend's graphToPrompt does, using a
 * recorded `/object_info` for each class's widget order. Followed from Comfy-Org/ComfyUI_frontend:
 * a widget per INT/FLOAT/STRING/BOOLEAN/COMBO input in declared order
 * (`useIntWidget`, `useComboWidget`), one more value after a seed (`control_after_generate`,
 * `valueControlWidgets.ts`), two after a combo with control_after_generate (the control and its
 * filter list), one after LoadImage's image (the upload button); a widget turned into an input
 * and linked takes its value from the link (a PrimitiveNode's own value); Reroutes are followed,
 * bypassed nodes (mode 4) pass their input of the same type through, muted ones (mode 2) and
 * notes are left out.
 */
import { PipelineError, parseApiWorkflow, type PipelineGraph } from './model';
import type { ObjectInfo } from './object-info';
import { packHint } from './packs';

const MODE_MUTED = 2;
const MODE_BYPASS = 4;
/** Nodes that exist only in the editor. */
const VIRTUAL = new Set(['Note', 'MarkdownNote', 'PrimitiveNode', 'Reroute']);

interface UiInput { name: string; type?: string; link: number | null; widget?: { name: string } }
interface UiNode { id: string; type: string; mode: number; title?: string; inputs: UiInput[]; widgets: unknown[] | Record<string, unknown> | undefined }
interface UiLink { origin: string; slot: number; type: string }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a JSON value looks like a UI-format workflow (nodes and links arrays). */
export function isUiWorkflow(json: unknown): boolean {
  return isObject(json) && Array.isArray(json.nodes) && Array.isArray(json.links);
}

function readLinks(raw: unknown[]): Map<number, UiLink> {
  const links = new Map<number, UiLink>();
  for (const l of raw) {
    if (Array.isArray(l) && l.length >= 5) links.set(Number(l[0]), { origin: String(l[1]), slot: Number(l[2]), type: String(l[5] ?? '*') });
    else if (isObject(l)) links.set(Number(l.id), { origin: String(l.origin_id), slot: Number(l.origin_slot), type: String(l.type ?? '*') });
  }
  return links;
}

function readNodes(raw: unknown[]): Map<string, UiNode> {
  const nodes = new Map<string, UiNode>();
  for (const n of raw) {
    if (!isObject(n) || typeof n.type !== 'string') continue;
    const inputs = Array.isArray(n.inputs) ? n.inputs.filter(isObject).map((i): UiInput => ({
      name: String(i.name), link: typeof i.link === 'number' ? i.link : null,
      ...(typeof i.type === 'string' ? { type: i.type } : {}),
      ...(isObject(i.widget) && typeof i.widget.name === 'string' ? { widget: { name: i.widget.name } } : {}),
    })) : [];
    const widgets = Array.isArray(n.widgets_values) || isObject(n.widgets_values) ? n.widgets_values : undefined;
    nodes.set(String(n.id), {
      id: String(n.id), type: n.type, mode: typeof n.mode === 'number' ? n.mode : 0, inputs, widgets,
      ...(typeof n.title === 'string' ? { title: n.title } : {}),
    });
  }
  return nodes;
}

/** The subgraph and group-node forms ComfyUI keeps in a workflow's definitions. */
function refuseNested(json: Record<string, unknown>, nodes: Map<string, UiNode>): void {
  const defs = isObject(json.definitions) && Array.isArray(json.definitions.subgraphs) ? json.definitions.subgraphs : [];
  const subgraphIds = new Set(defs.filter(isObject).map((s) => String(s.id)));
  const extra = isObject(json.extra) && isObject(json.extra.groupNodes) ? Object.keys(json.extra.groupNodes) : [];
  for (const node of nodes.values()) {
    if (subgraphIds.has(node.type) || node.type.startsWith('workflow>') || extra.includes(node.type)) {
      throw new PipelineError(`node ${node.id} is a subgraph or group node, which Atelier does not unpack yet: in ComfyUI, save it with Export (API) and use that file`);
    }
  }
}

/**
 * The API-format graph of a UI-format workflow. Throws a PipelineError naming the node when a
 * class is not in `info` (its widget order cannot be known) or the workflow is nested.
 */
export function uiToApi(json: unknown, info: ObjectInfo): { graph: PipelineGraph; notes: string[] } {
  if (!isObject(json) || !Array.isArray(json.nodes) || !Array.isArray(json.links)) throw new PipelineError('this is not a UI-format ComfyUI workflow: expected nodes and links');
  const nodes = readNodes(json.nodes);
  const links = readLinks(json.links);
  refuseNested(json, nodes);
  const notes: string[] = [];

  /** Where a link really comes from: through Reroutes and bypassed nodes; undefined when cut. */
  const resolve = (linkId: number, seen = new Set<number>()): { origin: UiNode; slot: number } | undefined => {
    const link = links.get(linkId);
    if (link === undefined || seen.has(linkId)) return undefined;
    seen.add(linkId);
    const origin = nodes.get(link.origin);
    if (origin === undefined) return undefined;
    if (origin.type === 'Reroute' || origin.mode === MODE_BYPASS) {
      const through = origin.type === 'Reroute' ? origin.inputs[0] : origin.inputs.find((i) => i.link !== null && (i.type === link.type || link.type === '*'));
      return through?.link === undefined || through.link === null ? undefined : resolve(through.link, seen);
    }
    if (origin.mode === MODE_MUTED) return undefined;
    return { origin, slot: link.slot };
  };

  const api = Object.create(null) as Record<string, unknown>;
  for (const node of nodes.values()) {
    if (VIRTUAL.has(node.type) || node.mode === MODE_MUTED || node.mode === MODE_BYPASS) continue;
    const cls = info.get(node.type);
    if (cls === undefined) {
      const pack = packHint(node.type);
      throw new PipelineError(`node ${node.id} (${node.title ?? node.type}): this ComfyUI has no '${node.type}' node${pack === undefined ? '' : ` (it usually comes from ${pack})`}, so its widget values cannot be read; install it, or export the workflow with Export (API)`);
    }
    const inputs = Object.create(null) as Record<string, unknown>;
    const byName = new Map(node.inputs.map((i) => [i.widget?.name ?? i.name, i]));
    let slot = 0;
    const positional = Array.isArray(node.widgets) ? node.widgets : undefined;
    for (const input of cls.inputs) {
      let value: unknown;
      if (input.widget) {
        value = positional === undefined ? (node.widgets as Record<string, unknown> | undefined)?.[input.name] : positional[slot];
        slot += 1 + (input.control === true ? (input.type === 'COMBO' ? 2 : 1) : 0) + (input.upload === true ? 1 : 0);
      }
      const linked = byName.get(input.name);
      if (linked?.link !== null && linked?.link !== undefined) {
        const source = resolve(linked.link);
        if (source?.origin.type === 'PrimitiveNode') {
          const pv = source.origin.widgets;
          value = Array.isArray(pv) ? pv[0] : value;
        } else if (source !== undefined) {
          inputs[input.name] = [source.origin.id, source.slot];
          continue;
        }
      }
      // A workflow older than the widget: the frontend makes the widget with its default.
      if (input.widget && value === undefined && !input.optional) value = input.default;
      if (input.widget && value !== undefined) inputs[input.name] = Array.isArray(value) ? { __value__: value } : value;
    }
    // Fewer values than widgets is an older workflow before an optional widget was added: its default holds.
    const short = positional !== undefined && positional.length < slot && cls.inputs.filter((i) => i.widget && !i.optional).length <= positional.length;
    if (positional !== undefined && slot !== positional.length && !short) {
      notes.push(`node ${node.id} (${node.title ?? node.type}) has ${positional.length} widget values where this ComfyUI's ${node.type} has ${slot}; check its fields`);
    }
    const entry = Object.create(null) as Record<string, unknown>;
    entry.class_type = node.type;
    entry.inputs = inputs;
    entry._meta = { title: node.title ?? cls.displayName ?? node.type };
    api[node.id] = entry;
  }
  // Links to nodes left out (muted, unknown) make the graph fail its link check, naming the input.
  return { graph: parseApiWorkflow(api), notes };
}
