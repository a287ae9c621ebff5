import { describe, expect, it } from 'vitest';
import { importPipeline } from '../../api/backends/comfyui/pipeline/import';
import { checkNodeParams } from '../../nodes/check-params';
import { comfyWorkflowNode, comfyWorkflowParams } from '../../nodes/comfy-workflow';
import { resolveInputs, resolveOutputs } from '../../nodes/ports';
import { nodeCost } from '../../workers/cost';
import { fixtureText } from '../backends/comfyui/pipeline/fixtures';

const img2img = () => comfyWorkflowParams(importPipeline({ api: fixtureText('img2img', 'api') }), 'img2img.png');
const problems = (params: unknown) => {
  const check = checkNodeParams(comfyWorkflowNode, params as Record<string, unknown>, new Set());
  return check.ok ? [] : check.problems;
};

describe('the ComfyUI workflow node', () => {
  it('has the ports and outputs its params choose, and its fields hold the workflow values', () => {
    const params = img2img();
    expect(resolveInputs(comfyWorkflowNode, params).map((p) => [p.name, p.kind, p.optional === true])).toEqual([['image', 'image', false]]);
    expect(resolveOutputs(comfyWorkflowNode, params).map((p) => [p.name, p.kind])).toEqual([['images', 'images']]);
    expect(params.values).toEqual({ prompt: 'photograph of victorian woman with wings, sky clouds, meadow grass\n', negative_prompt: 'watermark, text\n', seed: 280823642470253 });
    expect(problems(params)).toEqual([]);
    expect(nodeCost(comfyWorkflowNode, params)).toMatchObject({ known: true, imageCalls: 1, images: 1, priceUnits: 1 });
  });

  it('says what is wrong, on the field concerned', () => {
    expect(problems({})).toEqual([{ field: 'pipeline', message: 'no ComfyUI workflow yet: choose a workflow file (API or UI format JSON, or a PNG ComfyUI saved)' }]);
    const params = img2img();
    expect(problems({ ...params, hash: 'abc' })).toEqual([{ field: 'hash', message: expect.stringMatching(/^does not match the workflow it names/) }]);
    expect(problems({ ...params, values: { ...params.values, seed: 'lots' } })).toEqual([{ field: 'seed', message: 'must be a number' }]);
    expect(problems({ ...params, values: { ...params.values, cfg: 3 } })).toEqual([{ field: 'values', message: "'cfg' is not a chosen field of this workflow" }]);
    // A `__proto__` key from a file is dropped by the parse, never set on anything.
    const parsed = comfyWorkflowNode.params.parse({ ...params, values: JSON.parse('{"__proto__": {"polluted": 1}}') as unknown });
    expect(Object.hasOwn(parsed.values, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const keyed = structuredClone(params);
    keyed.pipeline.nodes[0]!.inputs.push(['api_key', 'sk-abcdefghijklmnopqrstuvwxyz0123']);
    const found = problems(keyed).map((p) => p.message);
    expect(found).toContainEqual(expect.stringMatching(/^ComfyUI node 3 \(KSampler\), input api_key, holds a credential/));
    const evil = structuredClone(params);
    evil.pipeline.nodes.find((n) => n.class_type === 'LoadImage')!.inputs = [['image', '../../etc/passwd']];
    expect(problems(evil).filter((p) => p.field === 'image')).toEqual([{ field: 'image', message: "LoadImage's image '../../etc/passwd' points outside ComfyUI's input folder; refused" }]);
  });
});
