/**
 * Bypassing a node: the node stays in the graph but is not run. Each of its
 * outputs passes on the first connected input, in the node's input order, whose kind converts to
 * the output's kind (nodes/values.ts: image → image or images, text → text or number…). An output
 * with no such input carries nothing, and the nodes wired to it are skipped with the reason.
 */
import type { PortSpec, Value } from '../nodes/types';
import { ValueConversionError, canConvert, coerceToPort, convert, isListValue, listKindOf, splitsList } from '../nodes/values';
import type { NodeOutputs } from './events';
import { keyedRecord, ownValue } from '../workflow/keys';

/** Which input each output of a bypassed node passes on, decided from the graph alone. */
export interface PassThrough {
  /** Output name → the input whose value it carries. */
  passed: ReadonlyMap<string, string>;
  /** Output name → why it carries nothing. */
  unavailable: ReadonlyMap<string, string>;
}

/** The pass-through of a bypassed node (called `name` in its reasons) whose `connected` inputs are wired. */
export function passThroughOf(
  name: string,
  outputs: readonly PortSpec[],
  inputs: readonly PortSpec[],
  connected: ReadonlySet<string>,
): PassThrough {
  const passed = new Map<string, string>();
  const unavailable = new Map<string, string>();
  for (const output of outputs) {
    const input = inputs.find((port) => connected.has(port.name) && canConvert(port.kind, output.kind));
    if (input) passed.set(output.name, input.name);
    else unavailable.set(output.name, `bypassed '${name}' has no ${output.kind} input to pass through`);
  }
  return { passed, unavailable };
}

/** What a bypassed node needs at run time: its ports, what feeds them, and its pass-through. */
export interface BypassedNode {
  id: string;
  /** How its reasons name it (nodes/labels.ts `nodeName`). */
  name: string;
  inputs: readonly PortSpec[];
  outputs: readonly PortSpec[];
  bindings: ReadonlyMap<string, { node: string; port: string }>;
  passThrough: PassThrough;
}

/** Why an upstream output carries nothing: the node at the root of it, and the reason in words. */
export interface Unavailable {
  because: string;
  reason: string;
}

/**
 * The value an output of a bypassed node carries. A list that would have run the node once per
 * item passes on as a list, as the node's own outputs would have (fan-out.ts).
 */
function passOn(value: Value, input: PortSpec, output: PortSpec): Value {
  if (!isListValue(value) || value.value.length === 1 || !splitsList(input, value.kind)) return convert(coerceToPort(value, input), output.kind);
  if (listKindOf(output.kind) !== value.kind) {
    throw new ValueConversionError(value.kind, output.kind, `a list of ${value.value.length} items has no single ${output.kind} to give`);
  }
  return value;
}

/**
 * The outputs of a bypassed node from its upstream outputs. An output whose input carries nothing
 * (its own upstream was bypassed with nothing to pass) or whose value does not convert (an empty
 * list of images has no first image) is unavailable, with why.
 */
export function bypassOutputs(
  node: BypassedNode,
  upstream: ReadonlyMap<string, NodeOutputs>,
  upstreamUnavailable: (ref: { node: string; port: string }) => Unavailable | undefined,
): { outputs: NodeOutputs; unavailable: Map<string, Unavailable> } {
  const outputs: NodeOutputs = keyedRecord();
  const unavailable = new Map<string, Unavailable>();
  for (const [name, reason] of node.passThrough.unavailable) unavailable.set(name, { because: node.id, reason });
  for (const [name, inputName] of node.passThrough.passed) {
    const output = node.outputs.find((p) => p.name === name);
    const input = node.inputs.find((p) => p.name === inputName);
    const from = node.bindings.get(inputName);
    if (!output || !input || !from) continue;
    const missing = upstreamUnavailable(from);
    if (missing) {
      unavailable.set(name, missing);
      continue;
    }
    const value: Value | undefined = ownValue(upstream.get(from.node), from.port);
    if (value === undefined) {
      unavailable.set(name, { because: node.id, reason: `bypassed '${node.name}' got nothing on '${input.label}' to pass through` });
      continue;
    }
    try {
      outputs[name] = passOn(value, input, output);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      unavailable.set(name, { because: node.id, reason: `bypassed '${node.name}' cannot pass '${input.label}' on as '${output.label}': ${why}` });
    }
  }
  return { outputs, unavailable };
}
