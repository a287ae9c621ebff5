/**
 * Some node types fetch the code their `validate` and `run` use on demand (NodeDefinition.load:
 * the image nodes' request rules, with the CLIP token count), so the editor's page does not carry
 * it. Whatever validates, estimates or runs a workflow loads its node types first.
 */
import type { AnyNodeDefinition } from '../nodes/types';
import type { Workflow } from '../workflow/schema';

/** Loads the code the node types of `workflow` need to be validated and run. */
export async function loadNodeTypes(
  workflow: Pick<Workflow, 'nodes'>,
  registry: { get(type: string): AnyNodeDefinition | undefined },
): Promise<void> {
  const loads = new Set<() => Promise<void>>();
  for (const node of workflow.nodes) {
    const load = registry.get(node.type)?.load;
    if (load) loads.add(load);
  }
  await Promise.all([...loads].map((load) => load()));
}
