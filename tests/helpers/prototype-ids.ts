/**
 * A workflow whose node ids, edge ids, port names (placeholders) and a note id are names every
 * JavaScript object answers to, and a snapshot of the built-in objects such a file could change
 * if any record of nodes, ports or outputs were a plain object indexed by them.
 */

/** What the workflow should give, run: each by the node's id in the file. */
export const HOSTILE_RESULTS = {
  /** Text filled from three placeholders named toString, hasOwnProperty and __proto__ (valueOf unconnected). */
  constructor: 'a red fox in watercolor style, a red fox again',
  /** A bypassed Text passes its `{{propertyIsEnumerable}}` input on to a Preview. */
  valueOf: 'watercolor',
  /** A list split from a text runs `propertyIsEnumerable` once per item, into a Preview. */
  __lookupSetter__: ['a owl at dusk', 'a heron at dusk'],
  /** Text to image `toString`: its seed. */
  seed: 7,
};

const text = (id: string, value: string, y: number, extra: object = {}) =>
  ({ id, type: 'text', title: `Text ${id}`, position: { x: 0, y }, params: { text: value }, ...extra });
const edge = (id: string, from: string, to: string) => {
  const [sn, sp] = from.split('.') as [string, string];
  const [tn, tp] = to.split('.') as [string, string];
  return { id, source: { node: sn, port: sp }, target: { node: tn, port: tp } };
};

/** The file, as an object ready for JSON.stringify (its ids are values, never keys). */
export function hostileWorkflow() {
  return {
    format: 'atelier.workflow',
    version: 1,
    metadata: { title: 'Prototype names', description: '', created: '2026-01-15T10:00:00.000Z', modified: '2026-01-15T10:00:00.000Z' },
    nodes: [
      text('__proto__', 'a red fox', 0),
      text('hasOwnProperty', 'watercolor', 100),
      text('constructor', '{{toString}} in {{hasOwnProperty}} style{{valueOf}}, {{__proto__}} again', 200),
      { id: 'toString', type: 'text-to-image', title: 'Draw', position: { x: 400, y: 0 }, params: { engine: 'sd', seed: 7, steps: 2, width: 512, height: 512, num_images: 1 } },
      { id: 'prototype', type: 'preview', position: { x: 800, y: 0 }, params: {} },
      text('isPrototypeOf', '{{propertyIsEnumerable}}', 300, { bypass: true }),
      { id: 'valueOf', type: 'preview', position: { x: 800, y: 300 }, params: {} },
      text('toLocaleString', 'owl\nheron', 400),
      { id: '__defineGetter__', type: 'split-text', position: { x: 400, y: 400 }, params: { mode: 'lines' } },
      text('propertyIsEnumerable', 'a {{__lookupGetter__}} at dusk', 500),
      { id: '__lookupSetter__', type: 'preview', position: { x: 800, y: 500 }, params: {} },
    ],
    edges: [
      edge('__proto__', '__proto__.text', 'constructor.toString'),
      edge('constructor', 'hasOwnProperty.text', 'constructor.hasOwnProperty'),
      edge('toString', '__proto__.text', 'constructor.__proto__'),
      edge('e4', 'constructor.text', 'toString.prompt'),
      edge('e5', 'toString.image', 'prototype.value'),
      edge('e6', 'hasOwnProperty.text', 'isPrototypeOf.propertyIsEnumerable'),
      edge('e7', 'isPrototypeOf.text', 'valueOf.value'),
      edge('e8', 'toLocaleString.text', '__defineGetter__.text'),
      edge('e9', '__defineGetter__.items', 'propertyIsEnumerable.__lookupGetter__'),
      edge('e10', 'propertyIsEnumerable.text', '__lookupSetter__.value'),
    ],
    notes: [{ id: 'toString', position: { x: 0, y: 700 }, size: { width: 200, height: 100 }, text: 'a note' }],
    groups: [{ id: 'hasOwnProperty', title: 'Inputs', color: 'blue', position: { x: -20, y: -20 }, size: { width: 300, height: 300 }, nodes: ['__proto__', 'hasOwnProperty'], notes: ['toString'] }],
  };
}

/**
 * Every own property of Object.prototype, of each function on it (toString, hasOwnProperty…),
 * of Object itself and of Function.prototype, as text: equal before and after means untouched.
 */
export function prototypeSnapshot(): string {
  const describe = (target: object) => Reflect.ownKeys(target).map((key) => {
    const d = Object.getOwnPropertyDescriptor(target, key)!;
    const shown = 'value' in d ? (typeof d.value === 'function' ? `fn ${(d.value as { name: string }).name}` : typeof d.value) : 'accessor';
    return `${String(key)}=${shown}`;
  }).join(',');
  const parts = [`Object.prototype: ${describe(Object.prototype)}`, `Object: ${describe(Object)}`, `Function.prototype: ${describe(Function.prototype)}`];
  for (const name of Object.getOwnPropertyNames(Object.prototype)) {
    const value = (Object.prototype as Record<string, unknown>)[name];
    if (typeof value === 'function') parts.push(`${name}: ${describe(value)}`);
  }
  parts.push(`proto of Object.prototype: ${String(Object.getPrototypeOf(Object.prototype))}`);
  return parts.join('\n');
}
