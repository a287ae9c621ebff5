/**
 * What the Make component dialog offers to show on the new component's face: the main fields of
 * the selected nodes (every field of a type that names none), each with a face name that is a
 * command-line word (`--set restyle-1.strength=0.4`) and unique, and a label to start from. Edit
 * face offers the same of a definition's inner nodes, with the fields it shows already under
 * their own names and labels.
 */
import type { NodeRegistry } from '../../nodes/index';
import { fieldLabel } from '../../nodes/labels';
import type { ComponentDefinition, ComponentParam, WorkflowNode } from '../../workflow/schema';
import { shownName } from '../store/names';

export interface ShownChoice extends ComponentParam {
  /** "Image to image: Strength", for the checkbox. */
  description: string;
}

/** The fields of `nodes` that can be shown on a component's face, in node order. */
export function shownChoices(nodes: readonly WorkflowNode[], registry: NodeRegistry, reserved: Iterable<string> = []): ShownChoice[] {
  const taken = new Set<string>(reserved);
  const out: ShownChoice[] = [];
  for (const node of nodes) {
    const def = registry.get(node.type);
    if (!def) continue;
    const shape = (def.params as { shape?: Record<string, unknown> }).shape;
    const fields = def.mainFields ?? Object.keys(shape ?? {});
    for (const param of fields) {
      const stem = param.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60) || 'field';
      let name = stem;
      for (let n = 2; taken.has(name); n++) name = `${stem}_${n}`;
      taken.add(name);
      const label = fieldLabel(def, param);
      out.push({ name, label, node: node.id, param, description: `${shownName(node, registry)}: ${label}` });
    }
  }
  return out;
}

/**
 * What Edit face offers for `def`: its inner nodes' fields, those the face shows under their face
 * names (instances keep their values under those) and any it shows that is not a main field; and
 * the shown ones with their labels.
 */
export function faceChoices(def: ComponentDefinition, registry: NodeRegistry): { choices: ShownChoice[]; shown: Map<string, string> } {
  const key = (p: { node: string; param: string }) => JSON.stringify([p.node, p.param]);
  const current = new Map(def.params.map((p) => [key(p), p]));
  const choices = shownChoices(def.nodes, registry, def.params.map((p) => p.name)).map((c) => {
    const now = current.get(key(c));
    current.delete(key(c));
    return now ? { ...c, name: now.name } : c;
  });
  const nodes = new Map(def.nodes.map((n) => [n.id, n]));
  for (const p of current.values()) {
    const node = nodes.get(p.node);
    const description = node ? `${shownName(node, registry)}: ${fieldLabel(registry.get(node.type), p.param)}` : `${p.node}: ${p.param}`;
    choices.push({ name: p.name, label: p.label, node: p.node, param: p.param, description });
  }
  return { choices, shown: new Map(def.params.map((p) => [p.name, p.label])) };
}
