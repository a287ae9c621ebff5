/**
 * Memos keyed by content, for the per-node work that the plan, the executor and the estimate
 * repeat on every run and every estimate (parsing and checking parameters, digesting cache keys).
 * The editor sends a fresh copy of the workflow each time, so identity cannot serve as the key;
 * `exactKey` writes the data itself out instead.
 */
import { LRUCache } from 'lru-cache';

/** Longer strings are not keyed: holding them would cost more memory than the work saves. */
const LONG_STRING = 4096;

/**
 * A text that is equal for two values exactly when a parse cannot tell them apart: keys in their
 * own order (a problem list names unknown keys in that order), `undefined` members kept, -0, NaN
 * and the infinities kept apart from what JSON would make of them. Undefined for anything that
 * is not plain data (class instances, functions, sparse arrays), for strings longer than
 * LONG_STRING, and past `maxLength` characters: such values are simply not memoised.
 */
export function exactKey(value: unknown, maxLength = 16 * 1024): string | undefined {
  // Most parameters are what JSON writes exactly, and JSON.stringify is native. The other
  // texts cannot be mistaken for JSON: they hold U or # outside a string, which JSON never does.
  const key = isJsonExact(value) ? JSON.stringify(value) : keyOf(value, maxLength);
  return key !== undefined && key.length <= maxLength ? key : undefined;
}

/** Plain data that JSON writes out exactly: no undefined, no -0, NaN or infinity, no long string. */
function isJsonExact(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
      return v.length <= LONG_STRING;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'boolean':
      return true;
    case 'object': {
      if (v === null) return true;
      if (Array.isArray(v)) {
        if (Object.getPrototypeOf(v) !== Array.prototype || Object.keys(v).length !== v.length) return false;
        for (const item of v) if (!isJsonExact(item)) return false;
        return true;
      }
      if (Object.getPrototypeOf(v) !== Object.prototype) return false;
      const record = v as Record<string, unknown>;
      for (const name of Object.keys(record)) if (!isJsonExact(record[name])) return false;
      return true;
    }
    default:
      return false;
  }
}

/** `exactKey` without the final length check; stops early once past `maxLength`. */
function keyOf(v: unknown, maxLength: number): string | undefined {
  switch (typeof v) {
    case 'string':
      return v.length <= LONG_STRING ? JSON.stringify(v) : undefined;
    case 'number':
      return Object.is(v, -0) ? '#-0' : `#${v}`;
    case 'boolean':
      return v ? 'T' : 'F';
    case 'undefined':
      return 'U';
    case 'object': {
      if (v === null) return '_';
      let out: string;
      if (Array.isArray(v)) {
        if (Object.getPrototypeOf(v) !== Array.prototype || Object.keys(v).length !== v.length) return undefined;
        out = '[';
        for (let i = 0; i < v.length; i++) {
          const item = keyOf(v[i], maxLength);
          if (item === undefined) return undefined;
          out += i === 0 ? item : `,${item}`;
          if (out.length > maxLength) return undefined;
        }
        return `${out}]`;
      }
      if (Object.getPrototypeOf(v) !== Object.prototype) return undefined;
      const record = v as Record<string, unknown>;
      out = '{';
      for (const name of Object.keys(record)) {
        const item = keyOf(record[name], maxLength);
        if (item === undefined) return undefined;
        out += `${out.length === 1 ? '' : ','}${JSON.stringify(name)}:${item}`;
        if (out.length > maxLength) return undefined;
      }
      return `${out}}`;
    }
    default:
      // bigint, symbol, function: not parameters.
      return undefined;
  }
}

/**
 * A copy of plain data (objects and arrays new, everything else shared), so a memoised result
 * handed out twice can be changed by one taker without the other, or the memo, seeing it.
 */
export function copyPlain<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyPlain) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copy = copyPlain((value as Record<string, unknown>)[key]);
    // An own '__proto__' member (JSON.parse makes one) must stay a member, not become the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}

export interface Memo<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
}

/** How much a memo holds: entries, and characters of keys (what stands for the size of both). */
export interface MemoBounds {
  maxEntries: number;
  maxKeyChars: number;
}

/** A memo keeping the most recently used entries within both bounds (the project's one bounded cache: lru-cache). */
export function createMemo<V extends NonNullable<unknown>>(bounds: MemoBounds): Memo<V> {
  return new LRUCache<string, V>({ max: bounds.maxEntries, maxSize: bounds.maxKeyChars, sizeCalculation: (_value, key) => Math.max(1, key.length) });
}
