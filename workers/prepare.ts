/**
 * Everything about a node run that can be known before it is called: its inputs (converted to
 * what each port takes), its parameters (param ports laid over the form, checked) and its cache
 * key. The executor and the estimate share it, so an estimate's "cached" is the executor's.
 */
import type { z } from 'zod';
import type { AnyNodeDefinition, RunContext, Value } from '../nodes/types';
import { coerceToPort } from '../nodes/values';
import { NodeRunError, type NodeOutputs } from './events';
import { nodeCacheKey } from './hash';
import { checkParams, describeProblems, mergeParamPorts } from './params';
import type { PlannedNode } from './plan';
import { keyedRecord, ownValue } from '../workflow/keys';

/** What besides the node itself shapes its result: settings a node may read, which service answers. */
export function cacheContextOf(settings: RunContext['settings'], scope: string | undefined): unknown {
  return { settings, scope: scope ?? null };
}

/**
 * The node's inputs as its upstream outputs hold them, not yet converted: a list stays a list,
 * so the fan-out can see it (fan-out.ts).
 */
export function upstreamValues(node: PlannedNode, upstream: ReadonlyMap<string, NodeOutputs>): Record<string, Value> {
  // Port names come from the file (a placeholder may be called 'toString'): no prototype here,
  // and an upstream node's outputs are read for what they hold, not what every object answers to.
  const values = keyedRecord<Value>();
  for (const [portName, from] of node.bindings) {
    const value = ownValue(upstream.get(from.node), from.port);
    if (!node.inputs.some((p) => p.name === portName)) throw new NodeRunError(`has no input '${portName}'`, { port: portName });
    if (value === undefined) {
      throw new NodeRunError(`input '${portName}': node '${from.node}' produced no '${from.port}' output`, { port: portName });
    }
    values[portName] = value;
  }
  return values;
}

/** An empty text on an input that must not get one (an image node's prompt): stops the node before it sends. */
function checkEmptyTexts(node: PlannedNode, inputs: Readonly<Record<string, Value>>): void {
  for (const port of node.inputs) {
    const value = inputs[port.name];
    if (port.emptyMeans === undefined || value?.kind !== 'text' || value.value.trim() !== '') continue;
    const from = node.bindings.get(port.name)?.node;
    const what = value.value === '' ? 'an empty text' : 'a blank text';
    throw new NodeRunError(`input '${port.label}' got ${what}${from === undefined ? '' : ` from '${from}'`}: ${port.emptyMeans}, so nothing was sent`, { port: port.name });
  }
}

/** Each input value converted to what its port takes. */
function coerceInputs(node: PlannedNode, values: Readonly<Record<string, Value>>): Record<string, Value> {
  const inputs = keyedRecord<Value>();
  for (const [portName, value] of Object.entries(values)) {
    const port = node.inputs.find((p) => p.name === portName);
    if (!port) throw new NodeRunError(`has no input '${portName}'`, { port: portName });
    try {
      inputs[portName] = coerceToPort(value, port);
    } catch (error) {
      throw new NodeRunError(`input '${port.label}': ${error instanceof Error ? error.message : String(error)}`, { port: portName });
    }
  }
  return inputs;
}

const editorOnlyMemo = new WeakMap<AnyNodeDefinition, readonly string[]>();

/**
 * Parameters the definition marks `editorOnly` in their zod metadata (an image node's
 * `seed_mode`): they steer the editor between runs and never change a result.
 */
export function editorOnlyParams(def: AnyNodeDefinition): readonly string[] {
  let names = editorOnlyMemo.get(def);
  if (names === undefined) {
    const shape = (def.params as Partial<z.ZodObject>).shape as Record<string, z.ZodType> | undefined;
    names = shape === undefined ? [] : Object.keys(shape).filter((name) => shape[name]?.meta()?.editorOnly === true);
    editorOnlyMemo.set(def, names);
  }
  return names;
}

/** The parameters that shape the node's result: all of them but the editor-only ones. */
function resultParams(def: AnyNodeDefinition, params: Record<string, unknown>): Record<string, unknown> {
  const skip = editorOnlyParams(def);
  if (skip.length === 0) return params;
  return Object.fromEntries(Object.entries(params).filter(([name]) => !skip.includes(name)));
}

export interface PreparedNode {
  inputs: Record<string, Value>;
  /** Parsed, defaults filled in, param ports merged. */
  params: Record<string, unknown>;
  /** Undefined when the node says this run cannot be reproduced (a random seed). */
  key: string | undefined;
}

/**
 * Inputs, checked parameters and cache key of one run of the node, from the input values of
 * that run (`upstreamValues`, or one item of a fan-out); throws a NodeRunError naming the port
 * or field at fault.
 */
export async function prepareRun(
  node: PlannedNode,
  values: Readonly<Record<string, Value>>,
  cacheContext: unknown,
): Promise<PreparedNode> {
  const inputs = coerceInputs(node, values);
  checkEmptyTexts(node, inputs);
  // A param port's value is in the params now, so the node's rules judge it as if typed (a wired
  // prompt over the engine's token limit is found here, before anything is sent, and by the
  // estimate); only the other inputs count as connected.
  const connected = new Set(Object.keys(inputs).filter((name) => node.inputs.find((p) => p.name === name)?.param === undefined));
  const check = checkParams(node.def, mergeParamPorts(node.params, node.inputs, inputs), connected);
  if (!check.ok) {
    throw new NodeRunError(`invalid parameters: ${describeProblems(check.problems, node.def)}`, { field: check.problems[0]?.field });
  }
  const params = check.params;
  const cacheable = node.def.cacheable?.(params) ?? true;
  const key = cacheable ? await nodeCacheKey(node.def, resultParams(node.def, params), inputs, cacheContext) : undefined;
  return { inputs, params, key };
}
