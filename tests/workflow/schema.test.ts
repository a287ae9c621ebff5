/** The schema's own rules, and the published JSON Schema kept in step with it. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WORKFLOW_JSON_SCHEMA_PATH, renderWorkflowJsonSchema } from '../../workflow/json-schema';
import { WorkflowSchema, crossCheck } from '../../workflow/schema';
import { fixture } from './fixtures';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('published JSON Schema', () => {
  it('is the committed file, freshly generated (run `npm run schema` after changing the schema)', () => {
    const committed = readFileSync(`${root}${WORKFLOW_JSON_SCHEMA_PATH}`, 'utf8');
    expect(committed).toBe(renderWorkflowJsonSchema());
  });

  it('describes the current version, with its limits', () => {
    const schema = JSON.parse(renderWorkflowJsonSchema()) as {
      $id: string; title: string; additionalProperties: boolean;
      properties: { format: { const: string }; version: { anyOf: { const: number }[] }; nodes: { maxItems: number }; edges: { maxItems: number } };
    };
    expect(schema.$id).toBe('urn:atelier:schema:workflow:v2');
    expect(schema.properties.format.const).toBe('atelier.workflow');
    expect(schema.properties.version.anyOf.map((v) => v.const)).toEqual([1, 2]);
    expect(schema.properties.nodes.maxItems).toBe(5000);
    expect(schema.properties.edges.maxItems).toBe(20000);
    expect(schema.additionalProperties).toBe(false);
    expect(WORKFLOW_JSON_SCHEMA_PATH).toBe('public/schema/atelier-workflow.v2.schema.json');
  });
});

describe('WorkflowSchema', () => {
  const valid = JSON.parse(fixture('small-graph')) as Record<string, unknown>;

  it('accepts a valid workflow at every boundary (the worker parses the same way)', () => {
    expect(WorkflowSchema.safeParse(valid).success).toBe(true);
  });

  it('runs the cross-checks as part of the parse', () => {
    const edges = [...(valid.edges as unknown[]), { id: 'x', source: { node: 'nope', port: 'a' }, target: { node: 'show', port: 'extra' } }];
    const result = WorkflowSchema.safeParse({ ...valid, edges });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['edges.3.source.node', "no node 'nope'"]]);
  });

  it('accepts ids with letters, digits, _ and -, and refuses the rest', () => {
    const withId = (id: string) => WorkflowSchema.safeParse({ ...valid, nodes: [{ id, type: 'text', position: { x: 0, y: 0 } }], edges: [] });
    expect(withId('Node_1-a').success).toBe(true);
    for (const id of ['', 'has space', 'dot.ted', 'eq=', 'é']) expect(withId(id).success).toBe(false);
  });

  it('refuses positions past the canvas bounds and control characters in port names', () => {
    const nodes = [{ id: 'a', type: 'text', position: { x: 1e12, y: 0 } }];
    expect(WorkflowSchema.safeParse({ ...valid, nodes, edges: [] }).success).toBe(false);
    const edges = [{ id: 'e', source: { node: 'draw', port: 'im\u0000age' }, target: { node: 'show', port: 'image' } }];
    expect(WorkflowSchema.safeParse({ ...valid, edges }).success).toBe(false);
  });
});

describe('crossCheck', () => {
  const pos = { x: 0, y: 0 };
  it('finds every duplicate and dangling reference, and one edge per input port', () => {
    const issues = crossCheck({
      nodes: [{ id: 'a', type: 't', position: pos, params: {} }, { id: 'a', type: 't', position: pos, params: {} }],
      edges: [
        { id: 'e', source: { node: 'a', port: 'o' }, target: { node: 'a', port: 'i' } },
        { id: 'e', source: { node: 'x', port: 'o' }, target: { node: 'y', port: 'i' } },
        { id: 'f', source: { node: 'a', port: 'o' }, target: { node: 'a', port: 'i' } },
        // Same node and port text split differently is a different port.
        { id: 'g', source: { node: 'a', port: 'o' }, target: { node: 'a', port: 'i"' } },
      ],
    });
    expect(issues).toEqual([
      { path: ['nodes', 1, 'id'], message: "duplicate node id 'a' (also nodes[0])" },
      { path: ['edges', 1, 'id'], message: "duplicate edge id 'e' (also edges[0])" },
      { path: ['edges', 1, 'source', 'node'], message: "no node 'x'" },
      { path: ['edges', 1, 'target', 'node'], message: "no node 'y'" },
      { path: ['edges', 2, 'target'], message: "input 'i' of node 'a' already has an edge (edges[0])" },
    ]);
  });
});
