/**
 * `{{name}}` placeholders in text templates (Text, Chat prompt writer). Each distinct valid name
 * becomes an optional text input; an unconnected one is filled with '' because the text nearly
 * always ends up in a prompt, where a literal "{{style}}" is never what anyone wants.
 * A placeholder whose name is not an identifier is reported as a problem and left as written.
 */
import type { ParamIssue, PortSpec, Value } from './types';
import { keyedRecord, ownValue } from '../workflow/keys';
import { textOf } from './values';

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface TemplateParts {
  /** Distinct valid placeholder names, in order of first appearance. */
  names: string[];
  /** Placeholders as written whose name is not a valid identifier. */
  invalid: string[];
}

export function parseTemplate(template: string): TemplateParts {
  const names: string[] = [];
  const invalid: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!IDENTIFIER.test(name)) {
      if (!invalid.includes(match[0])) invalid.push(match[0]);
    } else if (!names.includes(name)) {
      names.push(name);
    }
  }
  return { names, invalid };
}

/** Distinct valid placeholder names across several templates, in order of first appearance. */
export function placeholderNames(...templates: string[]): string[] {
  const names = new Set<string>();
  for (const t of templates) for (const name of parseTemplate(t).names) names.add(name);
  return [...names];
}

/** Replaces each valid placeholder with its value ('' when absent); invalid ones stay as written. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    IDENTIFIER.test(name) ? (Object.hasOwn(values, name) ? values[name]! : '') : whole);
}

/** Fills a template from a node's connected text inputs. */
export function fillFromInputs(template: string, inputs: Readonly<Record<string, Value | undefined>>): string {
  // Placeholder names are the user's ('{{constructor}}', '{{__proto__}}'): keys of a record
  // without a prototype, read from the inputs only where an input of that name is there.
  const values = keyedRecord<string>();
  for (const name of parseTemplate(template).names) values[name] = textOf(ownValue(inputs, name));
  return fillTemplate(template, values);
}

/** One optional text input per placeholder name. */
export function placeholderPorts(names: readonly string[]): PortSpec[] {
  return names.map((name) => ({
    name,
    kind: 'text' as const,
    label: name,
    optional: true,
    description: `Fills {{${name}}}; empty when not connected.`,
  }));
}

/** Problems with the placeholders of one template parameter. */
export function templateIssues(param: string, template: string): ParamIssue[] {
  return parseTemplate(template).invalid.map((written) => ({
    param,
    message: `placeholder ${written} is not a valid name: use letters, digits and _, not starting with a digit (it is left as written)`,
  }));
}
