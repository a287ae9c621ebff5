/**
 * Flattening components before a run (workflow/flatten.ts, called by every plan): 200 instances
 * of a 10-node component (a chain of the real catalogue's nodes, two shown parameters set on each
 * instance), each fed by its own text node: 2,000 inner nodes. Target 10 ms, well inside the time
 * a run's planning may take. Also the editor's face sources of the same file (src/run), per run.
 */
import { performance } from 'node:perf_hooks';
import { componentHash } from '../workflow/components';
import { flattenComponents } from '../workflow/flatten';
import type { ComponentDefinition, Workflow, WorkflowEdge, WorkflowNode } from '../workflow/schema';
import { faceSources } from '../src/run/component-rollup';
import { median, type Benchmark } from './harness';

/** A 10-node component: text to image, then nine image to image steps in a chain. */
export function tenNodeComponent(): ComponentDefinition {
  const nodes: WorkflowNode[] = [{ id: 'n0', type: 'text-to-image', position: { x: 0, y: 0 }, params: { seed: 1 } }];
  const edges: WorkflowEdge[] = [];
  for (let i = 1; i < 10; i++) {
    nodes.push({ id: `n${i}`, type: 'image-to-image', position: { x: i * 380, y: 0 }, params: { prompt: `step ${i}`, seed: i } });
    edges.push({ id: `e${i}`, source: { node: `n${i - 1}`, port: 'image' }, target: { node: `n${i}`, port: 'image' } });
  }
  const content = {
    nodes, edges,
    inputs: [{ name: 'prompt', targets: [{ node: 'n0', port: 'prompt' }] }],
    outputs: [{ name: 'image', source: { node: 'n9', port: 'image' } }],
    params: [{ name: 'seed', label: 'Seed', node: 'n0', param: 'seed' }, { name: 'strength', label: 'Strength', node: 'n9', param: 'strength' }],
  };
  return { id: 'chain', name: 'Chain', revision: 1, hash: componentHash(content), ...content };
}

/** `count` instances of the component, each fed by a text node of its own. */
export function instancesWorkflow(count: number): Workflow {
  const nodes: WorkflowNode[] = [];
  const edges: WorkflowEdge[] = [];
  for (let i = 0; i < count; i++) {
    nodes.push({ id: `t${i}`, type: 'text', position: { x: 0, y: i * 400 }, params: { text: `subject ${i}` } });
    nodes.push({ id: `c${i}`, type: 'component:chain', position: { x: 400, y: i * 400 }, params: { seed: i, strength: 0.5 } });
    edges.push({ id: `w${i}`, source: { node: `t${i}`, port: 'text' }, target: { node: `c${i}`, port: 'prompt' } });
  }
  return {
    format: 'atelier.workflow', version: 2, metadata: { title: 'bench', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
    nodes, edges, components: [tenNodeComponent()],
  };
}

const time = (f: () => void, runs: number): number => {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    f();
    samples.push(performance.now() - start);
  }
  return median(samples);
};

const bench: Benchmark = {
  name: 'flatten',
  run() {
    const wf = instancesWorkflow(200);
    const check = flattenComponents(wf);
    const flatNodes = check.ok ? check.workflow.nodes.length : 0;
    // Warmed up as a page that has run a few times is: the first calls include compiling the code.
    for (let i = 0; i < 30; i++) flattenComponents(wf);
    const flatten = time(() => flattenComponents(wf), 21);
    const faces = time(() => faceSources(wf), 21);
    return Promise.resolve([
      { name: 'flatten 200 instances of a 10-node component', value: flatten, unit: 'ms', target: 10, better: 'lower', note: `${flatNodes} nodes after (2,200 expected)` },
      { name: "the editor's face sources of the same file, per run", value: faces, unit: 'ms', better: 'lower' },
    ]);
  },
};

export default bench;
