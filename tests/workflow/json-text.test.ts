/** Reading JSON text: syntax errors located by line and column, without quoting the file. */
import { describe, expect, it } from 'vitest';
import { WorkflowLoadError } from '../../workflow/errors';
import { lineAndColumn, locateJsonError, parseJsonText } from '../../workflow/json-text';

function parseError(text: string): string {
  try {
    parseJsonText(text, 1_000_000);
  } catch (error) {
    if (error instanceof WorkflowLoadError) return error.issues.map((i) => `${i.path}: ${i.message}`).join('\n');
    throw error;
  }
  throw new Error('expected a parse error');
}

describe('parseJsonText', () => {
  it('parses valid JSON, with or without a byte-order mark', () => {
    expect(parseJsonText('{"a":[1,2]}', 100)).toEqual({ a: [1, 2] });
    expect(parseJsonText('\uFEFF{"a":1}', 100)).toEqual({ a: 1 });
  });

  it.each([
    ['{\n  "a": 1,\n}', '(file): line 3, column 1: expected a property name in double quotes, found \'}\''],
    ['{"a": 1 "b": 2}', "(file): line 1, column 9: expected ',' or '}', found '\"'"],
    ['[1, 2', '(file): line 1, column 6: the file ends too early (1 unclosed bracket)'],
    ['{"a": tru}', "(file): line 1, column 7: expected a value, found 't'"],
    ['{"a": "line\nbreak"}', '(file): line 1, column 12: a line break inside a string (write it escaped, such as \\n)'],
    ['{"a": "\\x"}', '(file): line 1, column 8: an unknown escape in a string'],
    ['{"a": "\\u12G4"}', '(file): line 1, column 8: a \\u escape needs four hex digits'],
    ['{"a": "open', '(file): line 1, column 7: a string that is never closed'],
    ['{"a": 1} {"b": 2}', "(file): line 1, column 10: unexpected '{' after the end of the document"],
    ['{"a" 1}', "(file): line 1, column 6: expected ':' after the property name, found '1'"],
    ['[01]', "(file): line 1, column 3: expected ',' or ']', found '1'"],
    ['{"a": -}', "(file): line 1, column 7: expected a value, found '-'"],
    ['{"a": NaN}', "(file): line 1, column 7: expected a value, found 'N'"],
    ['   ', '(file): there is no JSON in it'],
  ])('says where %j is broken', (text, message) => {
    expect(parseError(text)).toBe(message);
  });

  it('never quotes the file in its message', () => {
    const secret = 'sk-FAKE0000test0000not0a0real0key';
    const message = parseError(`{"token": "${secret}" oops}`);
    expect(message).not.toContain(secret);
    expect(message).toMatch(/line 1, column 47/);
  });

  it('refuses text over the size limit', () => {
    expect(() => parseJsonText('[1, 2, 3]', 5)).toThrow(/too large/);
  });
});

describe('locateJsonError agrees with JSON.parse', () => {
  const valid = [
    '{"format":"atelier.workflow","nodes":[{"id":"a","params":{"x":-1.5e3,"y":[true,false,null],"s":"\\u00e9\\n\\"q\\""}}],"e":{}}',
    '[]', '{}', '0', '-0.5', '"x"', 'null', ' \n\t[ 1 , { } , [ ] ] \r\n',
  ];

  it.each(valid)('finds no error in %j', (text) => {
    expect(() => JSON.parse(text) as unknown).not.toThrow();
    expect(locateJsonError(text)).toBeUndefined();
  });

  it('flags exactly the texts JSON.parse refuses, over many single-character mutations', () => {
    const base = valid[0]!;
    const replacements = ['', ',', '}', ']', '"', ':', ' ', 'x', '0', '\\', '\n'];
    let checked = 0;
    for (let i = 0; i < base.length; i++) {
      for (const r of replacements) {
        const text = base.slice(0, i) + r + base.slice(i + 1);
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect({ text, located: locateJsonError(text) === undefined }).toEqual({ text, located: parses });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

describe('lineAndColumn', () => {
  it('counts from 1', () => {
    expect(lineAndColumn('ab\ncd\nef', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd\nef', 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn('ab\ncd\nef', 6)).toEqual({ line: 3, column: 1 });
  });
});
