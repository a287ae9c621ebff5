/** Components for tests: a definition from the fake node types, and instances of it. */
import { componentHash } from '../../workflow/components';
import type { ComponentDefinition, Workflow } from '../../workflow/schema';
import { workflow } from '../workers/fakes';

type Spec = Omit<ComponentDefinition, 'hash' | 'revision'> & { revision?: number };

/** A definition with its hash filled in. */
export function component(spec: Spec): ComponentDefinition {
  const def = { revision: 1, ...spec, hash: '' };
  return { ...def, hash: componentHash(def) };
}

/** "Shout": source text → join (with the outside text on b) → text out; shows the join separator as 'sep'. */
export const shout = (): ComponentDefinition => component({
  id: 'shout',
  name: 'Shout',
  nodes: workflow([['word', 'source', { text: 'HEY' }], ['mix', 'join', { sep: '!' }]]).nodes,
  edges: workflow([], ['word.text -> mix.a']).edges,
  inputs: [{ name: 'tail', label: 'Tail', targets: [{ node: 'mix', port: 'b' }] }],
  outputs: [{ name: 'out', label: 'Out', source: { node: 'mix', port: 'text' } }],
  params: [{ name: 'sep', label: 'Separator', node: 'mix', param: 'sep' }],
});

/** A workflow with components: `nodes` and `edges` as fakes.workflow takes them. */
export function withComponents(components: ComponentDefinition[], ...args: Parameters<typeof workflow>): Workflow {
  return { ...workflow(...args), version: 2, components };
}
