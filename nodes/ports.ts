/**
 * Small helpers for declaring and resolving ports, shared by the node files and the executor.
 */
import type { AnyNodeDefinition, PortSpec } from './types';

/**
 * The inputs of a node for the given (parsed) parameters: the static list, or what the
 * definition derives from its parameters (Text's `{{name}}` placeholders).
 */
export function resolveInputs(def: AnyNodeDefinition, params: Record<string, unknown>): readonly PortSpec[] {
  return typeof def.inputs === 'function' ? def.inputs(params) : def.inputs;
}

/**
 * The outputs of a node for the given (parsed) parameters: the static list, or what the
 * definition derives from its parameters (a ComfyUI pipeline's save nodes).
 */
export function resolveOutputs(def: AnyNodeDefinition, params: Record<string, unknown>): readonly PortSpec[] {
  return typeof def.outputs === 'function' ? def.outputs(params) : def.outputs;
}

/** An optional text input that supplies the parameter of the same name (a prompt). */
export function textParamPort(name: string, label: string, description?: string): PortSpec {
  return { name, kind: 'text', label, optional: true, param: name, ...(description === undefined ? {} : { description }) };
}

/** An optional number input that supplies the parameter of the same name (a seed). */
export function numberParamPort(name: string, label: string, description?: string): PortSpec {
  return { name, kind: 'number', label, optional: true, param: name, ...(description === undefined ? {} : { description }) };
}
