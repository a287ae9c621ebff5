/**
 * Field-level problems with a request, in words a person can act on. Zod's own messages
 * ("Too small: expected number to be >=1") are rewritten; messages a schema sets itself are kept.
 */
import type { z } from 'zod';
import { closestName } from './closest-name';

/** One thing wrong with a request: the field (dotted path) and what is wrong with it. */
export interface FieldIssue {
  path: string;
  message: string;
}

export { closestName };

const ZOD_DEFAULT = /^(Too small|Too big|Invalid input|Invalid key|Invalid option|Invalid element|Invalid string)/;

function bound(value: number | bigint, inclusive: boolean | undefined, atLeast: boolean): string {
  const word = atLeast ? (inclusive === false ? 'more than' : 'at least') : (inclusive === false ? 'less than' : 'at most');
  return `${word} ${String(value)}`;
}

function withArticle(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** A zod issue in a person's words; a message the schema set itself is kept as it is. */
export function readableIssue(issue: z.core.$ZodIssue): string {
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type': {
      const received = /received (\w+)/.exec(issue.message)?.[1];
      if (received === 'undefined') return 'is required';
      if (issue.expected === 'int' && received === 'number') return 'must be a whole number';
      const expected = issue.expected === 'int' ? 'whole number' : issue.expected;
      const not = received === undefined ? '' : `, not ${received === 'null' ? 'null' : withArticle(received)}`;
      return `must be ${withArticle(expected)}${not}`;
    }
    case 'too_small':
      if (issue.origin === 'string') return issue.minimum === 1 ? 'must not be empty' : `must be ${bound(issue.minimum, issue.inclusive, true)} characters long`;
      if (issue.origin === 'array') return `must have ${bound(issue.minimum, issue.inclusive, true)} entries`;
      return `must be ${bound(issue.minimum, issue.inclusive, true)}`;
    case 'too_big':
      if (issue.origin === 'string') {
        return issue.inclusive === false ? `must be shorter than ${String(issue.maximum)} characters` : `is longer than ${String(issue.maximum)} characters`;
      }
      if (issue.origin === 'array') return `must have ${bound(issue.maximum, issue.inclusive, false)} entries`;
      return `must be ${bound(issue.maximum, issue.inclusive, false)}`;
    case 'invalid_key': {
      const inner = issue.issues[0];
      return `has an invalid name${inner === undefined ? '' : `: it ${readableIssue(inner)}`}`;
    }
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    default:
      return issue.message;
  }
}

/**
 * Zod issues as field issues, one per field. `fields` lists the request's known top-level fields,
 * so an unknown one can be answered with the field that was probably meant.
 */
export function zodIssues(error: z.ZodError, fields: readonly string[] = []): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const parent = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const guess = parent.length === 0 ? closestName(key, fields) : undefined;
        const hint = guess === undefined ? '' : `; did you mean '${guess}'?`;
        return { path: [...parent, key].join('.'), message: `is not a field of this request${hint}` };
      });
    }
    return [{ path: parent.join('.') || '(body)', message: readableIssue(issue) }];
  });
}

/** Readable one-line-per-problem text, as the local service sends in a 400 body. */
export function formatIssues(issues: readonly FieldIssue[]): string {
  return issues.map((i) => `${i.path}: ${i.message}`).join('\n');
}
