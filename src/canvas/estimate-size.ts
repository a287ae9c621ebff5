/**
 * The size a node will have when drawn in full, worked out from what it shows, for a node that
 * has not been drawn yet (out of view when the workflow opened, or opened in the overview):
 * placing new nodes clear of it and laying the graph out need its size before it has one. The
 * figures are the editor's own boxes as measured at full zoom (header, port rows, each kind of
 * field, the picture place); a node drawn once is measured instead (size-book.ts).
 */
import { Position, type NodeHandle } from '@xyflow/react';
import type { NodeRegistry } from '../../nodes/index';
import { planFields, type FieldSpec } from '../forms/field-plan';
import { inputsFor, outputsFor } from '../store/ports';
import { NODE_WIDTH } from '../store/frames';
import type { EditorState } from '../store/state';
import type { InboundEdges } from '../store/graph-index';
import type { ListFlow } from '../../nodes/list-flow';
import type { WorkflowNode } from '../../workflow/schema';
import { listFlowOf } from './list-flow';
import { makesPictures } from './makes-pictures';
import { shownInputs } from './shown-ports';

const HEADER = 35;
/** A header with a name of its own shows the type's name under it. */
const HEADER_NAMED = 48;
const PORTS_PAD = 8;
const PORT_ROW = 22;
/** Where port rows start below the header, and the step from one row to the next (node.css). */
const PORTS_TOP = 6;
const PORT_STEP = 24;
/** A handle's box (node.css): centred on the node's edge and on its row. */
const HANDLE = 12;
const FIELD_GAP = 8;
const FORM_PAD = 6;
const MORE_OPTIONS = 30;
/** The status line and the picture place of a node that makes pictures (results.css). */
const PICTURE_PLACE = 208;
const ITEMS_LINE = 20;
/** Zip or cross, on a node that takes two lists or more one item at a time. */
const FAN_OUT_CHOICE = 42;

function fieldHeight(spec: FieldSpec, value: unknown, wired: boolean): number {
  if (wired) return 49;
  switch (spec.widget) {
    case 'textarea':
    case 'prompt':
    case 'lines':
      return 106;
    case 'image':
      return value === undefined || value === null || value === '' ? 81 : 269;
    case 'controlnet':
    case 'weights':
    case 'triggers':
      return 100;
    default:
      return 49;
  }
}

type Size = { width: number; height: number };

/** What a node's estimate reads besides the node itself. */
interface Around {
  inbound: InboundEdges | undefined;
  asInput: ReadonlySet<string> | undefined;
  flow: ListFlow;
}

/**
 * Estimates by node object (immer gives an edited node a new one), with what else they read:
 * placing a node or making room asks for every node's size, and a graph opened in the overview
 * has hundreds not drawn.
 */
const known = new WeakMap<WorkflowNode, Around & { size: Size | undefined }>();

export function estimateNodeSize(state: Pick<EditorState, 'view' | 'index' | 'asInput'>, registry: NodeRegistry, id: string): Size | undefined {
  const node = state.index.nodeById.get(id);
  if (!node) return undefined;
  const inbound = state.index.inbound.get(id);
  const asInput = state.asInput.get(id);
  const flow = listFlowOf(state.view, registry);
  const hit = known.get(node);
  if (hit && hit.inbound === inbound && hit.asInput === asInput && hit.flow === flow) return hit.size;
  const size = estimate(state.index, registry, node, { inbound, asInput, flow });
  known.set(node, { inbound, asInput, flow, size });
  return size;
}

function estimate(index: EditorState['index'], registry: NodeRegistry, node: WorkflowNode, { inbound, asInput, flow }: Around): Size | undefined {
  const id = node.id;
  const def = registry.get(node.type);
  if (!def) return undefined;
  const inputs = inputsFor(def, node.params);
  const rows = Math.max(shownInputs(inputs, inbound, asInput).length, outputsFor(def, node.params).length);
  let height = (node.title && node.title !== def.title ? HEADER_NAMED : HEADER) + (rows > 0 ? PORTS_PAD + rows * PORT_ROW : 0);
  if (node.collapsed === true) return { width: NODE_WIDTH, height };
  if ((flow.splitting.get(id)?.length ?? 0) >= 2) height += FAN_OUT_CHOICE;
  const fields = planFields(def, node.params, inputs);
  const main = fields.filter((f) => f.section === 'main');
  if (main.length > 0) {
    height += FORM_PAD + main.reduce((sum, f) => sum + FIELD_GAP + fieldHeight(f, node.params[f.name], f.port !== undefined && inbound?.has(f.port.name) === true), 0);
  }
  if (main.length < fields.length) height += MORE_OPTIONS;
  if (makesPictures(index, registry, id)) {
    height += PICTURE_PLACE + (flow.fanning.has(id) ? ITEMS_LINE : 0);
  }
  return { width: NODE_WIDTH, height };
}

/**
 * Where a node's handles will be, as React Flow records them (in the node's box, at full zoom),
 * for a node that has not been drawn. React Flow draws every node it has no handle places for,
 * in view or not, to measure them: given these, it draws only the nodes in view when a workflow
 * opens, and measures each as it comes into view. Wires to a node never drawn end at these places.
 */
export function estimateHandles(state: Pick<EditorState, 'index' | 'asInput'>, registry: NodeRegistry, id: string, width: number): NodeHandle[] | undefined {
  const node = state.index.nodeById.get(id);
  const def = node && registry.get(node.type);
  if (!node || !def) return undefined;
  const header = node.title && node.title !== def.title ? HEADER_NAMED : HEADER;
  const row = (i: number) => header + PORTS_TOP + i * PORT_STEP + (PORT_ROW - HANDLE) / 2;
  const inputs = shownInputs(inputsFor(def, node.params), state.index.inbound.get(id), state.asInput.get(id));
  return [
    ...inputs.map((p, i): NodeHandle => ({ id: p.name, type: 'target', position: Position.Left, x: -HANDLE / 2, y: row(i), width: HANDLE, height: HANDLE })),
    ...outputsFor(def, node.params).map((p, i): NodeHandle => ({ id: p.name, type: 'source', position: Position.Right, x: width - HANDLE / 2, y: row(i), width: HANDLE, height: HANDLE })),
  ];
}
