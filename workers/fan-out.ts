/**
 * Fan-out: a list that reaches an input taking one value runs the node once per item. Pure
 * functions: which inputs split, the items (zipped, or every combination when the node asks for
 * the cross product), and the node's outputs gathered back into lists. A list of one is its item
 * (nodes/values.ts), so it never fans out; an input that takes a list whole collects it.
 */
import type { PortSpec, Value } from '../nodes/types';
import { isListValue, itemOf, listKindOf, splitsList, type ListValue } from '../nodes/values';
import { NodeRunError, type NodeOutputs } from './events';
import { keyedRecord, ownValue } from '../workflow/keys';

/** How a node pairs the items of two or more lists: item by item, or every combination. */
export type FanOutMode = 'zip' | 'cross';

/** An input that splits, and how many items its list holds. */
export interface SplitInput {
  port: string;
  label: string;
  length: number;
}

export interface FanOut {
  /** How many times the node runs. */
  count: number;
  mode: FanOutMode;
  /** The inputs that split, in the node's input order. */
  lists: SplitInput[];
  /** The inputs of run `index`: every list input replaced by its item, the rest as they are. */
  itemInputs(index: number): Record<string, Value>;
  /** For run `index`, the index into each list (in `lists` order). */
  position(index: number): number[];
}

/**
 * How `values` (the node's inputs as they arrived, unconverted) fan the node out; undefined when
 * it runs once. Throws a NodeRunError when zipped lists differ in length.
 */
export function fanOutOf(inputs: readonly PortSpec[], values: Readonly<Record<string, Value>>, mode: FanOutMode = 'zip'): FanOut | undefined {
  const split: { spec: SplitInput; list: ListValue }[] = [];
  for (const port of inputs) {
    const value = ownValue(values, port.name);
    // A list of one converts to its item, like any other conversion.
    if (value === undefined || !isListValue(value) || value.value.length === 1 || !splitsList(port, value.kind)) continue;
    split.push({ spec: { port: port.name, label: port.label, length: value.value.length }, list: value });
  }
  if (split.length === 0) return undefined;
  const lists = split.map((s) => s.spec);
  const lengths = lists.map((l) => l.length);
  if (mode === 'zip' && lengths.some((n) => n !== lengths[0])) {
    const sizes = lists.map((l) => `'${l.label}' has ${l.length}`).join(', ');
    throw new NodeRunError(
      `cannot pair its lists item by item: ${sizes}; give them the same length, or choose "every combination" on the node`,
      { port: lists[0]!.port },
    );
  }
  const count = mode === 'zip' ? lengths[0]! : lengths.reduce((a, b) => a * b, 1);
  const position = (index: number): number[] => {
    if (mode === 'zip') return lengths.map(() => index);
    // The first list varies slowest: subject 1 with every style, then subject 2…
    const at: number[] = [];
    let rest = index;
    for (let i = lengths.length - 1; i >= 0; i--) {
      at[i] = rest % lengths[i]!;
      rest = Math.floor(rest / lengths[i]!);
    }
    return at;
  };
  return {
    count,
    mode,
    lists,
    position,
    itemInputs(index) {
      const at = position(index);
      const out = keyedRecord(Object.entries(values));
      split.forEach((s, i) => {
        out[s.spec.port] = itemOf(s.list, at[i]!);
      });
      return out;
    },
  };
}

/**
 * The outputs of a node that ran once per item, as lists in item order: a single value becomes a
 * list of one entry per item, a list output the items' lists one after another (an image node's
 * `images`). Every item must have ended with its outputs.
 */
export function gatherOutputs(items: readonly NodeOutputs[]): NodeOutputs {
  const names: string[] = [];
  for (const outputs of items) for (const name of Object.keys(outputs)) if (!names.includes(name)) names.push(name);
  const gathered: NodeOutputs = keyedRecord();
  for (const name of names) {
    const values = items.map((outputs) => ownValue(outputs, name)).filter((v): v is Value => v !== undefined);
    const kind = values[0] === undefined ? undefined : listKindOf(values[0].kind);
    if (kind === undefined) {
      throw new NodeRunError(`output '${name}' gives ${values[0]?.kind ?? 'nothing'}, which has no list form, so it cannot be run once per item`, { port: name });
    }
    if (values.some((v) => listKindOf(v.kind) !== kind)) {
      throw new NodeRunError(`output '${name}' gave values of different kinds from one item to the next`, { port: name });
    }
    if (kind === 'texts') {
      gathered[name] = { kind, value: values.flatMap((v) => (v.kind === 'texts' ? v.value : v.kind === 'text' ? [v.value] : [])) };
    } else {
      gathered[name] = { kind, value: values.flatMap((v) => (v.kind === 'images' ? v.value : v.kind === 'image' ? [v.value] : [])) };
    }
  }
  return gathered;
}
