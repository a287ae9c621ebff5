/**
 * The first pass over a freshly parsed file, before any of our code reads it: bounds its depth,
 * keys and strings, and rebuilds every object so that no key can reach a prototype. Iterative, so
 * a hostile nesting cannot overflow the stack; later passes may recurse because depth is bounded.
 */
import { type WarningSink, type WorkflowIssue, MAX_ISSUES } from './errors';
import type { WorkflowLimits } from './limits';
import { type PathLink, extendPath, formatLink } from './path';

/** JSON as it comes out of JSON.parse, after sanitising. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** Keys that reach or replace an object's prototype when assigned or merged. */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export interface SanitizeResult {
  value: JsonValue;
  issues: WorkflowIssue[];
}

interface Task {
  value: unknown;
  /** Where the rebuilt value goes. */
  parent: JsonObject | JsonValue[];
  key: string | number;
  path: PathLink | undefined;
  depth: number;
}

type SanitizeLimits = Pick<WorkflowLimits, 'maxDepth' | 'maxStringChars' | 'maxKeyChars'>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Copies `parsed` into fresh plain objects and arrays, dropping unsafe keys (a warning each)
 * and collecting every value that breaks a limit as an issue. Depth past the limit is one issue
 * per place, not one per descendant.
 */
export function sanitizeJson(parsed: unknown, limits: SanitizeLimits, warnings: WarningSink): SanitizeResult {
  const issues: WorkflowIssue[] = [];
  const holder: JsonValue[] = [null];
  const stack: Task[] = [{ value: parsed, parent: holder, key: 0, path: undefined, depth: 1 }];

  const set = (task: Task, value: JsonValue) => {
    (task.parent as Record<string | number, JsonValue>)[task.key] = value;
  };

  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const task = stack.pop()!;
    const { value, path, depth } = task;
    if (value === null || typeof value === 'boolean') {
      set(task, value);
    } else if (typeof value === 'number') {
      // JSON.parse turns 1e400 into Infinity, which would be written back as null.
      if (Number.isFinite(value)) set(task, value);
      else issues.push({ path: formatLink(path), message: 'a number too large to represent' });
    } else if (typeof value === 'string') {
      if (value.length <= limits.maxStringChars) set(task, value);
      else issues.push({ path: formatLink(path), message: `a text of ${value.length} characters, the limit is ${limits.maxStringChars}` });
    } else if (typeof value !== 'object') {
      issues.push({ path: formatLink(path), message: 'not a JSON value' });
    } else if (depth > limits.maxDepth) {
      issues.push({ path: formatLink(path), message: `nested deeper than ${limits.maxDepth} levels` });
    } else if (Array.isArray(value)) {
      const out: JsonValue[] = new Array<JsonValue>(value.length).fill(null);
      set(task, out);
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], parent: out, key: i, path: extendPath(path, i), depth: depth + 1 });
      }
    } else {
      const out: JsonObject = {};
      set(task, out);
      const children: Task[] = [];
      for (const key of Object.keys(value)) {
        if (UNSAFE_KEYS.has(key)) {
          warnings.add({
            code: 'unsafe-key-dropped',
            path: formatLink(extendPath(path, key)),
            message: `the key '${key}' is never read from a file (it could alter built-in objects) and was removed`,
          });
        } else if (key.length > limits.maxKeyChars) {
          issues.push({ path: formatLink(path), message: `a key of ${key.length} characters, the limit is ${limits.maxKeyChars}` });
        } else {
          // Claim the key's place now so the rebuilt object keeps the file's key order.
          out[key] = null;
          children.push({ value: (value as Record<string, unknown>)[key], parent: out, key, path: extendPath(path, key), depth: depth + 1 });
        }
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }
  return { value: holder[0] ?? null, issues };
}
