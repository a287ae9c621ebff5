/**
 * What the Make component dialog offers to show on the new component's face: the main fields of
 * the selected nodes (every field of a type that names none), each with a face name that is a
 * command-line word (`--set restyle-1.strength=0.4`) and unique, and a label to start from.
 */
import type { NodeRegistry } from '../../nodes/index';
import { fieldLabel } from '../../nodes/labels';
import type { ComponentParam, WorkflowNode } from '../../workflow/schema';
import { shownName } from '../store/names';

export interface ShownChoice extends ComponentParam {
  /** "Image to image: Strength", for the checkbox. */
  description: string;
}

/** The fields of `nodes` that can be shown on a component's face, in node order. */
export function shownChoices(nodes: readonly WorkflowNode[], registry: NodeRegistry): ShownChoice[] {
  const taken = new Set<string>();
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
