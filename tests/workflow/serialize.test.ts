/** Saving: deterministic bytes, nothing volatile, and never a file that would not open again. */
import { describe, expect, it } from 'vitest';
import { createWorkflow, edgeIdFor, touchModified, uniqueNodeId } from '../../workflow/create';
import { WorkflowSaveError } from '../../workflow/errors';
import { loadWorkflow } from '../../workflow/load';
import { type Workflow, type WorkflowNode } from '../../workflow/schema';
import { serializeWorkflow } from '../../workflow/serialize';

const clock = (iso: string) => () => new Date(iso);
const node = (id: string, params: Record<string, unknown> = {}): WorkflowNode => ({ id, type: 'text', position: { x: 1, y: 2 }, params });

function sample(): Workflow {
  const workflow = createWorkflow({ title: 'Sample' }, clock('2026-03-01T12:00:00.000Z'));
  workflow.nodes.push(node('b', { zeta: 1, alpha: { y: 2, x: 1, 10: 'ten', 9: 'nine' }, Mid: [{ b: 1, a: 2 }] }), node('a'));
  workflow.edges.push({ id: 'e', source: { node: 'a', port: 'text' }, target: { node: 'b', port: 'in' } });
  return workflow;
}

function saveError(workflow: unknown): WorkflowSaveError {
  try {
    serializeWorkflow(workflow as Workflow);
  } catch (error) {
    if (error instanceof WorkflowSaveError) return error;
    throw error;
  }
  throw new Error('expected the save to fail');
}

describe('serializeWorkflow', () => {
  it('writes the schema field order, sorted params at every depth, two-space indent and a final newline', () => {
    const text = serializeWorkflow(sample());
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.startsWith('{\n  "format": "atelier.workflow",\n  "version": 1,\n  "metadata": {\n    "title": "Sample",')).toBe(true);
    const params = JSON.parse(text) as { nodes: { params: Record<string, Record<string, unknown>> }[] };
    // Code-unit order (capitals before lower case); array-index keys come first, in numeric order,
    // as JavaScript always orders them.
    const inParams = text.slice(text.indexOf('"params"'));
    const order = ['"Mid"', '"a": 2', '"b": 1', '"alpha"', '"9"', '"10"', '"x"', '"y"', '"zeta"'].map((k) => inParams.indexOf(k));
    expect(order.every((at) => at > 0)).toBe(true);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(params.nodes[0]!.params.alpha).toEqual({ x: 1, y: 2, 10: 'ten', 9: 'nine' });
    expect(text).toContain('\n      "id": "b",\n      "type": "text",\n      "position": {\n        "x": 1,\n        "y": 2\n      },');
  });

  it('gives the same bytes whatever order the workflow was built in', () => {
    const a = sample();
    const b = sample();
    b.nodes[0]!.params = Object.fromEntries(Object.entries(b.nodes[0]!.params).reverse());
    b.metadata = { modified: b.metadata.modified, created: b.metadata.created, description: '', title: 'Sample' };
    expect(serializeWorkflow(b)).toBe(serializeWorkflow(a));
  });

  it('round-trips byte for byte', () => {
    const text = serializeWorkflow(sample());
    expect(serializeWorkflow(loadWorkflow(text).workflow)).toBe(text);
  });

  it('leaves out volatile editor state and undefined values', () => {
    const workflow = sample();
    Object.assign(workflow.nodes[0]!, { selected: true, dragging: false, measured: { width: 200, height: 80 } });
    Object.assign(workflow.edges[0]!, { selected: true, animated: true });
    Object.assign(workflow, { viewport: { x: 0, y: 0, zoom: 1 } });
    workflow.nodes[1]!.title = undefined;
    workflow.nodes[1]!.params.seed = undefined;
    const text = serializeWorkflow(workflow);
    for (const word of ['selected', 'dragging', 'measured', 'animated', 'viewport', 'seed', 'undefined']) expect(text).not.toContain(word);
    expect(text).toBe(serializeWorkflow(sample()));
  });

  it('refuses to write a workflow that would not open again, naming where', () => {
    const broken = sample();
    broken.edges.push({ id: 'e2', source: { node: 'a', port: 'text' }, target: { node: 'ghost', port: 'in' } });
    expect(saveError(broken).issues).toEqual([{ path: 'edges[1].target.node', message: "no node 'ghost'" }]);

    const notJson = sample();
    notJson.nodes[0]!.params = { when: new Date(0), big: 10n, f: () => 1, nan: Number.NaN, list: [undefined] };
    expect(saveError(notJson).issues).toEqual([
      { path: 'nodes[0].params.big', message: 'not a JSON value (a bigint)' },
      { path: 'nodes[0].params.f', message: 'not a JSON value (a function)' },
      { path: 'nodes[0].params.list[0]', message: 'not a JSON value (undefined)' },
      { path: 'nodes[0].params.nan', message: 'a number that JSON cannot hold' },
      { path: 'nodes[0].params.when', message: 'not a JSON value (an object of a class)' },
    ]);

    let deep: unknown = 'leaf';
    for (let i = 0; i < 70; i++) deep = [deep];
    const tooDeep = sample();
    tooDeep.nodes[1]!.params = { deep };
    expect(saveError(tooDeep).issues[0]!.message).toBe('nested deeper than 64 levels');
  });
});

describe('create helpers', () => {
  it('creates an empty workflow stamped by the clock, in version 1 (no components)', () => {
    expect(createWorkflow({ title: 'New' }, clock('2026-03-01T12:00:00.000Z'))).toEqual({
      format: 'atelier.workflow',
      version: 1,
      metadata: { title: 'New', description: '', created: '2026-03-01T12:00:00.000Z', modified: '2026-03-01T12:00:00.000Z' },
      nodes: [],
      edges: [],
    });
    expect(createWorkflow().metadata.title).toBe('Untitled workflow');
    expect(loadWorkflow(serializeWorkflow(createWorkflow())).warnings).toEqual([]);
  });

  it('touches modified without changing the original, never before created', () => {
    const original = createWorkflow({}, clock('2026-03-01T12:00:00.000Z'));
    const later = touchModified(original, clock('2026-03-02T08:30:00.000Z'));
    expect(later.metadata).toMatchObject({ created: '2026-03-01T12:00:00.000Z', modified: '2026-03-02T08:30:00.000Z' });
    expect(original.metadata.modified).toBe('2026-03-01T12:00:00.000Z');
    expect(touchModified(original, clock('2020-01-01T00:00:00.000Z')).metadata.modified).toBe('2026-03-01T12:00:00.000Z');
    // 08:30Z is after 09:00+01:00 (08:00Z), though it sorts before it as text.
    const offset = { ...original, metadata: { ...original.metadata, created: '2026-02-01T09:00:00+01:00' } };
    expect(touchModified(offset, clock('2026-02-01T08:30:00.000Z')).metadata.modified).toBe('2026-02-01T08:30:00.000Z');
  });

  it('makes node ids that are unused and valid', () => {
    const workflow = { nodes: [node('text-to-image-1'), node('text-to-image-2')] };
    expect(uniqueNodeId(workflow, 'text-to-image')).toBe('text-to-image-3');
    expect(uniqueNodeId(workflow, 'My prompt: v2!')).toBe('My-prompt-v2-1');
    expect(uniqueNodeId(workflow, '???')).toBe('node-1');
  });

  it('names an edge by its ends', () => {
    expect(edgeIdFor({ node: 'a', port: 'image' }, { node: 'b', port: 'init_image' })).toBe('a:image->b:init_image');
  });
});
