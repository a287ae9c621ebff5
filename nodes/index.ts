/**
 * The node catalogue: every node type listed once, in palette order.
 * A duplicate type id, or a node whose ports repeat a name, is refused when the module loads.
 */
import { chatPromptWriterNode } from './chat-prompt-writer';
import { comfyWorkflowNode } from './comfy-workflow';
import { contactSheetNode } from './contact-sheet';
import { controlNetNode } from './controlnet';
import { imageLoaderNode } from './image-loader';
import { imageToImageNode } from './image-to-image';
import { inpaintNode } from './inpaint';
import { joinTextNode } from './join-text';
import { mergeNode } from './merge';
import { previewNode } from './preview';
import { splitTextNode } from './split-text';
import { textNode } from './text';
import { textToImageNode } from './text-to-image';
import type { AnyNodeDefinition, NodeCategory, PortSpec } from './types';

export const CATEGORIES: readonly { id: NodeCategory; label: string }[] = [
  { id: 'input', label: 'Inputs' },
  { id: 'text', label: 'Text' },
  { id: 'image', label: 'Image generation' },
  { id: 'output', label: 'Output' },
];

export interface NodeRegistry {
  /** The definition of a type, or undefined for a type this build does not know. */
  get(type: string): AnyNodeDefinition | undefined;
  has(type: string): boolean;
  /** Every definition, in registration order. */
  list(): readonly AnyNodeDefinition[];
  /** Definitions grouped for the palette, in category order; empty categories left out. */
  byCategory(): { id: NodeCategory; label: string; nodes: AnyNodeDefinition[] }[];
}

const TYPE_ID = /^[a-z][a-z0-9-]*$/;

function checkUniqueNames(def: AnyNodeDefinition, side: string, ports: readonly PortSpec[]): void {
  const seen = new Set<string>();
  for (const port of ports) {
    if (seen.has(port.name)) throw new Error(`node type '${def.type}' declares ${side} port '${port.name}' twice`);
    seen.add(port.name);
  }
}

/** A registry of the given definitions; throws on a duplicate type id or a malformed definition. */
export function createRegistry(defs: readonly AnyNodeDefinition[]): NodeRegistry {
  const byType = new Map<string, AnyNodeDefinition>();
  for (const def of defs) {
    if (!TYPE_ID.test(def.type)) throw new Error(`node type id '${def.type}' must be lower-case letters, digits and dashes`);
    if (byType.has(def.type)) throw new Error(`node type '${def.type}' is registered twice`);
    if (!Number.isInteger(def.version) || def.version < 1) throw new Error(`node type '${def.type}' has version ${def.version}; use a whole number from 1`);
    if (!CATEGORIES.some((c) => c.id === def.category)) throw new Error(`node type '${def.type}' has unknown category '${def.category}'`);
    if (typeof def.inputs !== 'function') checkUniqueNames(def, 'input', def.inputs);
    if (typeof def.outputs !== 'function') checkUniqueNames(def, 'output', def.outputs);
    byType.set(def.type, def);
  }
  const all = [...byType.values()];
  return {
    get: (type) => byType.get(type),
    has: (type) => byType.has(type),
    list: () => all,
    byCategory: () => CATEGORIES
      .map((c) => ({ ...c, nodes: all.filter((d) => d.category === c.id) }))
      .filter((c) => c.nodes.length > 0),
  };
}

/** Every node of this build, in palette order. */
export const NODE_DEFINITIONS: readonly AnyNodeDefinition[] = [
  imageLoaderNode,
  textNode,
  chatPromptWriterNode,
  splitTextNode,
  joinTextNode,
  textToImageNode,
  imageToImageNode,
  inpaintNode,
  controlNetNode,
  mergeNode,
  comfyWorkflowNode,
  previewNode,
  contactSheetNode,
];

export const registry: NodeRegistry = createRegistry(NODE_DEFINITIONS);

export { resolveInputs, resolveOutputs } from './ports';
export type { AnyNodeDefinition, NodeDefinition, PortSpec, Value } from './types';
