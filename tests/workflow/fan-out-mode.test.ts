/** The node's `fanOut` mode in the file: "cross" written, the default ("zip") never, read back as it was. */
import { describe, expect, it } from 'vitest';
import { createWorkflow } from '../../workflow/create';
import { WorkflowLoadError } from '../../workflow/errors';
import { loadWorkflow } from '../../workflow/load';
import type { Workflow } from '../../workflow/schema';
import { serializeWorkflow } from '../../workflow/serialize';

function withMode(fanOut: 'zip' | 'cross' | undefined): Workflow {
  const workflow = createWorkflow({ title: 'Lists' }, () => new Date('2026-03-01T12:00:00.000Z'));
  workflow.nodes.push({ id: 'a', type: 'text', position: { x: 0, y: 0 }, params: { text: 'hi' }, ...(fanOut === undefined ? {} : { fanOut: fanOut as 'cross' }) });
  return workflow;
}

describe('fanOut in the workflow file', () => {
  it('is written as "fanOut": "cross" after the title, and loads back so', () => {
    const text = serializeWorkflow(withMode('cross'));
    expect(text).toContain('"type": "text",\n      "fanOut": "cross",\n      "position"');
    expect(loadWorkflow(text).workflow.nodes[0]?.fanOut).toBe('cross');
  });

  it('is never written for the default, so a file without lists keeps its bytes', () => {
    const never = serializeWorkflow(withMode(undefined));
    expect(never).not.toContain('fanOut');
    const written = JSON.parse(never) as { nodes: Record<string, unknown>[] };
    written.nodes[0]!.fanOut = 'zip';
    const loaded = loadWorkflow(JSON.stringify(written));
    expect(loaded.workflow.nodes[0]?.fanOut).toBeUndefined();
    expect(loaded.warnings).toEqual([]);
    expect(serializeWorkflow(loaded.workflow)).toBe(never);
  });

  it('refuses another value, naming the node and the field', () => {
    const written = JSON.parse(serializeWorkflow(withMode(undefined))) as { nodes: Record<string, unknown>[] };
    written.nodes[0]!.fanOut = 'product';
    const error = (() => {
      try {
        loadWorkflow(JSON.stringify(written));
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(WorkflowLoadError);
    expect((error as WorkflowLoadError).issues).toEqual([{ path: 'nodes[0].fanOut', message: 'must be "zip" or "cross"' }]);
  });
});
