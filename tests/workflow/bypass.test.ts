/** The node's `bypass` flag in the file: written only when on, read back as it was. */
import { describe, expect, it } from 'vitest';
import { createWorkflow } from '../../workflow/create';
import { loadWorkflow } from '../../workflow/load';
import { WorkflowSchema, type Workflow } from '../../workflow/schema';
import { serializeWorkflow } from '../../workflow/serialize';

function withBypass(bypass: boolean | undefined): Workflow {
  const workflow = createWorkflow({ title: 'Bypass' }, () => new Date('2026-03-01T12:00:00.000Z'));
  workflow.nodes.push({ id: 'a', type: 'text', position: { x: 0, y: 0 }, params: { text: 'hi' }, ...(bypass === undefined ? {} : { bypass }) });
  return workflow;
}

describe('bypass in the workflow file', () => {
  it('is written as "bypass": true after the title, and loads back on', () => {
    const text = serializeWorkflow(withBypass(true));
    expect(text).toContain('"type": "text",\n      "bypass": true,\n      "position"');
    expect(loadWorkflow(text).workflow.nodes[0]?.bypass).toBe(true);
  });

  it('is never written when off, so a file that never used it keeps its bytes', () => {
    const never = serializeWorkflow(withBypass(undefined));
    expect(never).not.toContain('bypass');
    expect(serializeWorkflow(withBypass(false))).toBe(never);
  });

  it('reads "bypass": false in a hand-written file as absent, and refuses a value that is not a boolean', () => {
    const written = JSON.parse(serializeWorkflow(withBypass(undefined))) as { nodes: Record<string, unknown>[] };
    written.nodes[0]!.bypass = false;
    const loaded = loadWorkflow(JSON.stringify(written));
    expect(loaded.workflow.nodes[0]?.bypass).toBeUndefined();
    expect(loaded.warnings).toEqual([]);

    written.nodes[0]!.bypass = 'yes';
    const parsed = WorkflowSchema.safeParse(written);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['nodes', 0, 'bypass']);
  });
});
