/**
 * Credentials in a ComfyUI workflow node's workflow: its inputs are `[name, value]` lists, so a
 * key typed into an API node's widget (`api_key_comfy_org`, `auth_token_comfy_org`, `api_key`) is
 * not an object key. The loader empties it in place and the export check names it, each by the
 * ComfyUI node and input; a key-shaped value anywhere in it is found too, and a prompt keeps its text.
 */
import { describe, expect, it } from 'vitest';
import { importPipeline } from '../../api/backends/comfyui/pipeline/import';
import { comfyWorkflowParams } from '../../nodes/comfy-workflow';
import { registry } from '../../nodes/index';
import { catalogueLoadOptions } from '../../nodes/load-options';
import { removeFindings, scanWorkflowForExport } from '../../workflow/export-scan';
import { loadWorkflow } from '../../workflow/load';
import type { Workflow } from '../../workflow/schema';
import { serializeWorkflow } from '../../workflow/serialize';
import { fixtureText } from '../backends/comfyui/pipeline/fixtures';

const KEY = 'comfyui-0123456789abcdef0123456789abcdef0123';
const PLAIN = 'my-plain-password-1';

/** A flux workflow on a node, then keys typed into it as a file from anyone might carry them. */
function keyedWorkflow(): Workflow {
  const params = comfyWorkflowParams(importPipeline({ api: fixtureText('flux-dev', 'api') }), 'flux-dev.json');
  const nodes = params.pipeline.nodes;
  nodes.push({ id: '50', class_type: 'OpenAIDalle3', title: 'DALL·E', inputs: [['api_key_comfy_org', PLAIN], ['auth_token_comfy_org', 'tok'], ['prompt', `a cat ${KEY}`], ['size', '1024x1024']] });
  nodes.push({ id: '51', class_type: 'SomeCustomNode', inputs: [['settings', { api_key: PLAIN, steps: 4 }], ['endpoint', 'sk-abcdefghijklmnopqrstuvwxyz012345']] });
  return {
    format: 'atelier.workflow', version: 2,
    metadata: { title: 't', description: '', created: '2026-01-01T00:00:00Z', modified: '2026-01-01T00:00:00Z' },
    nodes: [{ id: 'flux', type: 'comfy-workflow', position: { x: 0, y: 0 }, params }],
    edges: [],
  } as Workflow;
}

const inputsOf = (wf: Workflow, id: string) => new Map((wf.nodes[0]!.params as ReturnType<typeof comfyWorkflowParams>).pipeline.nodes.find((n) => n.id === id)!.inputs);

describe('credentials in a ComfyUI workflow node', () => {
  it('are emptied on load in place, each warning naming the ComfyUI node and input; the prompt keeps its text', () => {
    const text = JSON.stringify(keyedWorkflow());
    const { workflow, warnings } = loadWorkflow(text, catalogueLoadOptions(registry));
    const dalle = inputsOf(workflow, '50');
    expect(dalle.get('api_key_comfy_org')).toBe('');
    expect(dalle.get('auth_token_comfy_org')).toBe('');
    expect(dalle.get('prompt')).toBe(`a cat ${KEY}`);
    expect(dalle.get('size')).toBe('1024x1024');
    const custom = inputsOf(workflow, '51');
    expect(custom.get('settings')).toEqual({ steps: 4 });
    expect(custom.get('endpoint')).toBe('');
    const messages = warnings.filter((w) => w.code === 'credential-dropped' || w.code === 'credential-in-text').map((w) => w.message);
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/^ComfyUI node 50 \(DALL·E\), input api_key_comfy_org: the key 'api_key_comfy_org' names a credential; removed/),
      expect.stringMatching(/^ComfyUI node 50 \(DALL·E\), input auth_token_comfy_org: the key 'auth_token_comfy_org' names a credential; removed/),
      expect.stringMatching(/^ComfyUI node 50 \(DALL·E\), input prompt: holds what looks like .*; kept as written/),
      expect.stringMatching(/^ComfyUI node 51 \(SomeCustomNode\), input endpoint: holds what looks like .*; removed/),
      expect.stringMatching(/^ComfyUI node 51 \(SomeCustomNode\), input settings: the key 'api_key' names a credential; removed/),
    ]));
    for (const w of warnings) {
      expect(w.message).not.toContain(PLAIN);
      expect(w.message).not.toContain(KEY);
    }
    const saved = serializeWorkflow(workflow);
    expect(saved).not.toContain(PLAIN);
    expect(saved).not.toContain('sk-abcdefghijklmnopqrstuvwxyz012345');
  });

  it('are named by the export check by ComfyUI node and input, and removed keeping the inputs in place', () => {
    const wf = keyedWorkflow();
    const { findings } = scanWorkflowForExport(wf, catalogueLoadOptions(registry));
    const named = findings.map((f) => [f.field, f.kind, f.remedy]);
    expect(named).toEqual(expect.arrayContaining([
      ['input api_key_comfy_org of ComfyUI node 50 (DALL·E) in comfy-workflow node #1 (flux)', "a ComfyUI input named like a credential ('api_key_comfy_org')", 'empty'],
      ['input auth_token_comfy_org of ComfyUI node 50 (DALL·E) in comfy-workflow node #1 (flux)', "a ComfyUI input named like a credential ('auth_token_comfy_org')", 'empty'],
      ['input prompt of ComfyUI node 50 (DALL·E) in comfy-workflow node #1 (flux)', expect.any(String), 'replace'],
      ['input endpoint of ComfyUI node 51 (SomeCustomNode) in comfy-workflow node #1 (flux)', expect.any(String), 'replace'],
    ]));
    expect(named).toContainEqual(['input settings.api_key of ComfyUI node 51 (SomeCustomNode) in comfy-workflow node #1 (flux)', "a field named like a credential ('api_key')", 'drop']);
    for (const f of findings) expect(`${f.field} ${f.kind} ${f.preview}`).not.toContain(PLAIN);
    const cleaned = removeFindings(wf, findings);
    const dalle = inputsOf(cleaned, '50');
    expect([...dalle.keys()]).toEqual(['api_key_comfy_org', 'auth_token_comfy_org', 'prompt', 'size']);
    expect(dalle.get('api_key_comfy_org')).toBe('');
    expect(dalle.get('prompt')).toBe('a cat [removed]');
    expect(scanWorkflowForExport(cleaned, catalogueLoadOptions(registry)).findings).toEqual([]);
    // The original is left alone.
    expect(inputsOf(wf, '50').get('api_key_comfy_org')).toBe(PLAIN);
  });
});
