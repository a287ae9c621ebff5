/**
 * The ComfyUI double's prompt validation: execution.py `validate_prompt` and `validate_inputs`
 * (Comfy-Org/ComfyUI) step by step, with the same error types, messages, details and the same
 * Python exceptions where the real code raises one (a link to a missing node is a KeyError, a
 * wrong output index an IndexError), so a bad prompt gets the real 400 body.
 */
import type { InputSpec, NodeClass } from './comfyui-nodes';

export interface ComfyError {
  type: string;
  message: string;
  details: string;
  extra_info: Record<string, unknown> | null;
}
export type NodeErrors = Record<string, { errors: ComfyError[]; dependent_outputs: string[]; class_type: string }>;
export type Validation =
  | { ok: true; outputs: string[]; nodeErrors: NodeErrors }
  | { ok: false; error: ComfyError; nodeErrors: NodeErrors };

type Prompt = Record<string, { class_type?: unknown; inputs?: Record<string, unknown> } | undefined>;

/** A Python exception raised during validation: its type name and `str(ex)`. */
export class PyError extends Error {
  constructor(readonly pyType: string, message: string) {
    super(message);
  }
}

function pyRepr(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

/** Python's int(), float(), str() and bool() as validate_inputs applies them. */
function convert(type: string, value: unknown): unknown {
  if (type === 'INT') {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'number') return Math.trunc(value);
    if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
    if (typeof value === 'string') throw new PyError('ValueError', `invalid literal for int() with base 10: ${pyRepr(value)}`);
    throw new PyError('TypeError', `int() argument must be a string, a bytes-like object or a real number, not '${value === null ? 'NoneType' : typeof value}'`);
  }
  if (type === 'FLOAT') {
    if (typeof value === 'number') return value;
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
    if (typeof value === 'string') throw new PyError('ValueError', `could not convert string to float: ${pyRepr(value)}`);
    throw new PyError('TypeError', `float() argument must be a string or a real number, not '${value === null ? 'NoneType' : typeof value}'`);
  }
  if (type === 'STRING') return typeof value === 'string' ? value : pyRepr(value);
  if (type === 'BOOLEAN') return Boolean(value);
  return value;
}

/** comfy_execution/validation.py `validate_node_input`, non-strict. */
function typesMatch(received: string | string[], wanted: string | string[]): boolean {
  // IO.ANY ('*') is an AnyType whose __ne__ is always False: it matches any type.
  if (received === wanted || received === '*' || wanted === '*') return true;
  if (typeof received !== 'string' || typeof wanted !== 'string') return false;
  const r = new Set(received.split(',').map((t) => t.trim()));
  return wanted.split(',').some((t) => r.has(t.trim()));
}

function inputsOf(prompt: Prompt, id: string): Record<string, unknown> {
  const inputs = prompt[id]?.inputs;
  if (inputs === undefined) throw new PyError('KeyError', "'inputs'");
  return inputs;
}

type Result = [boolean, ComfyError[], string];

function validateInputs(prompt: Prompt, id: string, validated: Map<string, Result>, classes: Record<string, NodeClass>): Result {
  const done = validated.get(id);
  if (done !== undefined) return done;
  const inputs = inputsOf(prompt, id);
  const cls = classes[String(prompt[id]?.class_type)] as NodeClass;
  const specs: [string, InputSpec, 'required' | 'optional'][] = [
    ...Object.entries(cls.input.required).map(([k, v]) => [k, v, 'required'] as [string, InputSpec, 'required']),
    ...Object.entries(cls.input.optional ?? {}).map(([k, v]) => [k, v, 'optional'] as [string, InputSpec, 'optional']),
  ];
  const validatedInputs = cls.validate?.inputs ?? [];
  const errors: ComfyError[] = [];
  let valid = true;

  for (const [x, [type, extra = {}], category] of specs) {
    const info = [type, extra];
    if (!(x in inputs)) {
      if (category === 'required') errors.push({ type: 'required_input_missing', message: 'Required input is missing', details: x, extra_info: { input_name: x } });
      continue;
    }
    let val = inputs[x];
    if (Array.isArray(val)) {
      if (val.length !== 2) {
        errors.push({ type: 'bad_linked_input', message: 'Bad linked input, must be a length-2 list of [node_id, slot_index]', details: x, extra_info: { input_name: x, input_config: info, received_value: val } });
        continue;
      }
      const [from, slot] = val as [unknown, unknown];
      const source = prompt[String(from)];
      if (source === undefined || typeof from !== 'string') throw new PyError('KeyError', pyRepr(from));
      const returns = classes[String(source.class_type)]?.output ?? [];
      if (typeof slot !== 'number' || !Number.isInteger(slot)) throw new PyError('TypeError', `tuple indices must be integers or slices, not ${slot === null ? 'NoneType' : typeof slot === 'string' ? 'str' : typeof slot}`);
      const received = returns[slot < 0 ? returns.length + slot : slot];
      if (received === undefined) throw new PyError('IndexError', 'tuple index out of range');
      if (!typesMatch(received, type)) {
        errors.push({
          type: 'return_type_mismatch', message: 'Return type mismatch between linked nodes', details: `${x}, received_type(${received}) mismatch input_type(${String(type)})`,
          extra_info: { input_name: x, input_config: info, received_type: received, linked_node: val },
        });
        continue;
      }
      try {
        if (!validateInputs(prompt, from, validated, classes)[0]) valid = false;
      } catch (ex) {
        valid = false;
        const e = ex instanceof PyError ? ex : new PyError('Exception', String(ex));
        validated.set(from, [false, [{
          type: 'exception_during_inner_validation', message: 'Exception when validating inner node', details: e.message,
          extra_info: { input_name: x, input_config: info, exception_message: e.message, exception_type: e.pyType, traceback: [], linked_node: val },
        }], from]);
      }
      continue;
    }
    try {
      if (typeof val === 'object' && val !== null && '__value__' in val) val = (val as { __value__: unknown }).__value__;
      if (typeof type === 'string') val = convert(type, val);
      inputs[x] = val;
    } catch (ex) {
      const e = ex as PyError;
      errors.push({ type: 'invalid_input_type', message: `Failed to convert an input value to a ${String(type)} value`, details: `${x}, ${pyRepr(val)}, ${e.message}`, extra_info: { input_name: x, input_config: info, received_value: val, exception_message: e.message } });
      continue;
    }
    if (validatedInputs.includes(x)) continue;
    const n = val as number;
    if (typeof extra.min === 'number' && n < extra.min) {
      errors.push({ type: 'value_smaller_than_min', message: `Value ${String(val)} smaller than min of ${extra.min}`, details: x, extra_info: { input_name: x, input_config: info, received_value: val } });
      continue;
    }
    if (typeof extra.max === 'number' && n > extra.max) {
      errors.push({ type: 'value_bigger_than_max', message: `Value ${String(val)} bigger than max of ${extra.max}`, details: x, extra_info: { input_name: x, input_config: info, received_value: val } });
      continue;
    }
    if (Array.isArray(type) && !type.includes(val as string)) {
      // Long lists (many model files) are not sent back.
      const long = type.length > 20;
      errors.push({
        type: 'value_not_in_list', message: 'Value not in list', details: `${x}: '${String(val)}' not in ${long ? `(list of length ${type.length})` : pyRepr(type)}`,
        extra_info: { input_name: x, input_config: long ? null : info, received_value: val },
      });
    }
  }

  if (cls.validate !== undefined) {
    const verdict = cls.validate.check(inputs);
    if (verdict !== true) {
      for (const x of cls.validate.inputs) errors.push({ type: 'custom_validation_failed', message: 'Custom validation failed for node', details: `${x} - ${verdict}`, extra_info: { input_name: x } });
    }
  }
  const result: Result = errors.length > 0 || !valid ? [false, errors, id] : [true, [], id];
  validated.set(id, result);
  return result;
}

export function validatePrompt(prompt: Prompt, classes: Record<string, NodeClass>): Validation {
  const outputs: string[] = [];
  for (const [x, node] of Object.entries(prompt)) {
    const invalid = (message: string): Validation => ({ ok: false, error: { type: 'invalid_prompt', message, details: `Node ID '#${x}'`, extra_info: {} }, nodeErrors: {} });
    if (typeof node !== 'object' || node === null || !('class_type' in node)) return invalid('Cannot execute because a node is missing the class_type property.');
    const cls = classes[String(node.class_type)];
    if (cls === undefined) return invalid(`Cannot execute because node ${String(node.class_type)} does not exist.`);
    if (cls.outputNode === true) outputs.push(x);
  }
  if (outputs.length === 0) return { ok: false, error: { type: 'prompt_no_outputs', message: 'Prompt has no outputs', details: '', extra_info: {} }, nodeErrors: {} };

  const good: string[] = [];
  const failures: [string, ComfyError[]][] = [];
  const nodeErrors: NodeErrors = {};
  const validated = new Map<string, Result>();
  for (const o of outputs) {
    let result: Result;
    try {
      result = validateInputs(prompt, o, validated, classes);
    } catch (ex) {
      const e = ex instanceof PyError ? ex : new PyError('Exception', String(ex));
      result = [false, [{ type: 'exception_during_validation', message: 'Exception when validating node', details: e.message, extra_info: { exception_type: e.pyType, traceback: [] } }], o];
      validated.set(o, result);
    }
    if (result[0]) {
      good.push(o);
      continue;
    }
    failures.push([o, result[1]]);
    for (const [id, [ok, reasons]] of validated) {
      // Nodes downstream of a failure are invalid without errors of their own: not reported.
      if (ok || reasons.length === 0) continue;
      nodeErrors[id] ??= { errors: reasons, dependent_outputs: [], class_type: String(prompt[id]?.class_type) };
      nodeErrors[id].dependent_outputs.push(o);
    }
  }
  if (good.length === 0) {
    const details = failures.flatMap(([, errors]) => errors.map((e) => `${e.message}: ${e.details}`)).join('\n');
    return { ok: false, error: { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details, extra_info: {} }, nodeErrors };
  }
  return { ok: true, outputs: good, nodeErrors };
}
