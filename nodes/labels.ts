/**
 * How a person names a node and its fields: by the title on the canvas and the labels in its
 * form, never by the ids and parameter names a workflow file keys them by (`text-to-image`,
 * `negative_prompt`). For messages the editor shows (problems, skip reasons, the credential
 * check); the CLI prints the same words.
 */
import type { z } from 'zod';
import type { AnyNodeDefinition, PortSpec } from './types';

/** A node's name: its own title, else its type's, else (an unknown type) its id. */
export function nodeName(node: { id: string; title?: string | undefined }, def: Pick<AnyNodeDefinition, 'title'> | undefined): string {
  return node.title?.trim() || def?.title || node.id;
}

const titlesMemo = new WeakMap<AnyNodeDefinition, ReadonlyMap<string, string>>();

/** Parameter name → its title in the form (the schema's `.meta({ title })`), once per definition. */
function paramTitles(def: AnyNodeDefinition): ReadonlyMap<string, string> {
  let titles = titlesMemo.get(def);
  if (titles === undefined) {
    const shape = (def.params as Partial<z.ZodObject>).shape as Record<string, z.ZodType> | undefined;
    const entries = Object.entries(shape ?? {}).flatMap(([name, schema]) => {
      const title: unknown = schema.meta()?.title;
      return typeof title === 'string' && title !== '' ? [[name, title] as const] : [];
    });
    titles = new Map(entries);
    titlesMemo.set(def, titles);
  }
  return titles;
}

const portLabel = (ports: readonly PortSpec[] | unknown, name: string): string | undefined =>
  Array.isArray(ports) ? (ports as readonly PortSpec[]).find((p) => p.name === name)?.label : undefined;

/**
 * A field of a node of type `def` as its form or its ports show it: a parameter by its title, an
 * input or output by its label. A nested path (`loras.svc:x`) keeps what follows its first part;
 * a name the type does not declare (or an unknown type) stays as written, as it is all there is.
 */
export function fieldLabel(def: AnyNodeDefinition | undefined, field: string): string {
  if (def === undefined) return field;
  const dot = field.indexOf('.');
  const top = dot === -1 ? field : field.slice(0, dot);
  const label = paramTitles(def).get(top) ?? portLabel(def.inputs, top) ?? portLabel(def.outputs, top) ?? top;
  return dot === -1 ? label : `${label} › ${field.slice(dot + 1)}`;
}
