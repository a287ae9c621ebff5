/** The node's `collapsed` view state in the file: written only when on, read back as it was; old files open unchanged. */
import { describe, expect, it } from 'vitest';
import { createWorkflow } from '../../workflow/create';
import { loadWorkflow } from '../../workflow/load';
import { WorkflowSchema, type Workflow } from '../../workflow/schema';
import { serializeWorkflow } from '../../workflow/serialize';

function withCollapsed(collapsed: boolean | undefined): Workflow {
  const workflow = createWorkflow({ title: 'Collapsed' }, () => new Date('2026-03-01T12:00:00.000Z'));
  workflow.nodes.push({ id: 'a', type: 'text', position: { x: 0, y: 0 }, params: { text: 'hi' }, ...(collapsed === undefined ? {} : { collapsed }) });
  return workflow;
}

describe('collapsed in the workflow file', () => {
  it('is written as "collapsed": true after the position, and loads back on', () => {
    const text = serializeWorkflow(withCollapsed(true));
    expect(text).toContain('"position": {\n        "x": 0,\n        "y": 0\n      },\n      "collapsed": true,\n      "params"');
    expect(loadWorkflow(text).workflow.nodes[0]?.collapsed).toBe(true);
  });

  it('is never written when off, so a file without it opens and saves byte for byte as before', () => {
    const never = serializeWorkflow(withCollapsed(undefined));
    expect(never).not.toContain('collapsed');
    expect(serializeWorkflow(withCollapsed(false))).toBe(never);
    expect(serializeWorkflow(loadWorkflow(never).workflow)).toBe(never);
  });

  it('reads "collapsed": false as absent, and refuses a value that is not a boolean, naming the node', () => {
    const written = JSON.parse(serializeWorkflow(withCollapsed(undefined))) as { nodes: Record<string, unknown>[] };
    written.nodes[0]!.collapsed = false;
    expect(loadWorkflow(JSON.stringify(written)).workflow.nodes[0]?.collapsed).toBeUndefined();

    written.nodes[0]!.collapsed = 'yes';
    const parsed = WorkflowSchema.safeParse(written);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['nodes', 0, 'collapsed']);
  });
});
