/**
 * Names from a file (node ids, port names, parameter names, placeholder names) used as keys. A
 * plain object already answers to the names of Object.prototype's members: `rec['toString']` is
 * a function before anything is stored, and `rec['__proto__']` is Object.prototype itself, so a
 * record indexed by a file's names reads wrong values, and a write through one of them changes
 * every object in the process. Records keyed by such names are Maps, or made here, without a
 * prototype; a record that came from elsewhere (a node's outputs, JSON, a structured clone) is
 * read with `ownValue`.
 */

/**
 * The names a plain object answers to without holding them, and `prototype`, which a function
 * answers to: a node id that is one of these is renamed on load (workflow/safe-ids.ts).
 */
export const PROTOTYPE_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** Whether `name` is safe as a key even of a plain object: not one of PROTOTYPE_NAMES. */
export function isSafeKey(name: string): boolean {
  return !PROTOTYPE_NAMES.has(name);
}

/**
 * A record without a prototype, filled from `entries` when given: every name is a key like any
 * other, `__proto__` included. JSON.stringify, Object.keys and spreading treat it as a plain object.
 */
export function keyedRecord<T>(entries?: Iterable<readonly [string, T]>): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  if (entries !== undefined) for (const [key, value] of entries) record[key] = value;
  return record;
}

/** `record[key]` when the record itself holds it; never what its prototype answers to. */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
