/**
 * A node's type from the registry, for the views that draw its ports and fields: for a component
 * instance the type is made from its definition, so the view must draw again when the definition
 * changes (Edit face) even though the instance's own node did not.
 */
import type { AnyNodeDefinition } from '../../nodes/types';
import { componentIdOf } from '../../workflow/components';
import type { WorkflowNode } from '../../workflow/schema';
import { useEditor, useEditorStore } from '../store/react';

/** `node`'s type; re-renders when `node` is an instance and its definition changes. */
export function useNodeType(node: WorkflowNode | undefined): AnyNodeDefinition | undefined {
  const store = useEditorStore();
  const componentId = node && componentIdOf(node.type);
  // Every edit of a definition makes a new object (immer), from which the registry makes the type.
  useEditor((s) => (componentId === undefined ? undefined : s.doc.components?.find((c) => c.id === componentId)));
  return node ? store.registry.get(node.type) : undefined;
}
