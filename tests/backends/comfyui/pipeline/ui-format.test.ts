import { describe, expect, it } from 'vitest';
import { importPipeline } from '../../../../api/backends/comfyui/pipeline/import';
import { PipelineError, toApiPrompt } from '../../../../api/backends/comfyui/pipeline/model';
import { uiToApi } from '../../../../api/backends/comfyui/pipeline/ui-format';
import { FAMILIES, fixtureText, recordedObjectInfo } from './fixtures';

const info = recordedObjectInfo();
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
const sorted = (inputs: Record<string, unknown> = {}) => Object.fromEntries(Object.entries(inputs).sort(([a], [b]) => (a < b ? -1 : 1)));

describe('UI format to API format, against the API format ComfyUI wrote into the same picture', () => {
  for (const family of FAMILIES) {
    it(family, () => {
      const { graph, notes } = uiToApi(JSON.parse(fixtureText(family, 'ui')), info);
      const got = plain(toApiPrompt(graph));
      const want = plain(JSON.parse(fixtureText(family, 'api')));
      expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
      for (const [id, node] of Object.entries(want)) {
        // The old frontend also sent LoadImage's upload button ("choose file to upload"), which ComfyUI ignores.
        const { 'choose file to upload': _, ...inputs } = node.inputs;
        // The inpainting picture predates grow_mask_by; today's frontend gives the widget its default.
        if (node.class_type === 'VAEEncodeForInpaint') inputs.grow_mask_by ??= 6;
        expect({ id, class_type: got[id]?.class_type, inputs: sorted(got[id]?.inputs) }).toEqual({ id, class_type: node.class_type, inputs: sorted(inputs) });
      }
      expect(notes).toEqual([]);
    });
  }
});

/** A small UI-format graph: a checkpoint, a prompt, a sampler and a save, with extras per test. */
interface UiTestNode { id: number; type: string; mode: number; title?: string; widgets_values?: unknown[]; inputs: Record<string, unknown>[] }

function ui(extraNodes: UiTestNode[] = [], extraLinks: unknown[][] = [], samplerWidgets: unknown[] = [7, 'randomize', 20, 8, 'euler', 'normal', 1]) {
  const nodes: UiTestNode[] = [
    { id: 1, type: 'CheckpointLoaderSimple', mode: 0, widgets_values: ['v1-5-pruned-emaonly.ckpt'], inputs: [] },
    { id: 2, type: 'CLIPTextEncode', mode: 0, title: 'Prompt', widgets_values: ['a cat'], inputs: [{ name: 'clip', type: 'CLIP', link: 1 }] },
    { id: 3, type: 'EmptyLatentImage', mode: 0, widgets_values: [512, 512, 1], inputs: [] },
    { id: 4, type: 'KSampler', mode: 0, widgets_values: samplerWidgets, inputs: [
      { name: 'model', type: 'MODEL', link: 2 }, { name: 'positive', type: 'CONDITIONING', link: 3 },
      { name: 'negative', type: 'CONDITIONING', link: 4 }, { name: 'latent_image', type: 'LATENT', link: 5 },
    ] },
    { id: 5, type: 'VAEDecode', mode: 0, inputs: [{ name: 'samples', type: 'LATENT', link: 6 }, { name: 'vae', type: 'VAE', link: 7 }] },
    { id: 6, type: 'SaveImage', mode: 0, widgets_values: ['out'], inputs: [{ name: 'images', type: 'IMAGE', link: 8 }] },
    ...extraNodes,
  ];
  return {
    nodes,
    links: [
      [1, 1, 1, 2, 0, 'CLIP'], [2, 1, 0, 4, 0, 'MODEL'], [3, 2, 0, 4, 1, 'CONDITIONING'], [4, 2, 0, 4, 2, 'CONDITIONING'],
      [5, 3, 0, 4, 3, 'LATENT'], [6, 4, 0, 5, 0, 'LATENT'], [7, 1, 2, 5, 1, 'VAE'], [8, 5, 0, 6, 0, 'IMAGE'], ...extraLinks,
    ],
  };
}

describe('UI format details the frontend has', () => {
  it('skips the control_after_generate value after a seed', () => {
    const prompt = plain(toApiPrompt(uiToApi(ui(), info).graph));
    expect(prompt['4']?.inputs).toMatchObject({ seed: 7, steps: 20, cfg: 8, sampler_name: 'euler', scheduler: 'normal', denoise: 1 });
  });

  it('follows a Reroute and passes a bypassed node through to the input of the same type', () => {
    const graph = ui([
      { id: 7, type: 'Reroute', mode: 0, inputs: [{ name: '', type: '*', link: 9 }] },
      { id: 8, type: 'LoraLoader', mode: 4, widgets_values: ['x.safetensors', 1, 1], inputs: [{ name: 'model', type: 'MODEL', link: 10 }, { name: 'clip', type: 'CLIP', link: 11 }] },
    ], [[9, 8, 0, 7, 0, 'MODEL'], [10, 1, 0, 8, 0, 'MODEL'], [11, 1, 1, 8, 1, 'CLIP']]);
    // The sampler's model now comes through the reroute from the bypassed LoRA.
    graph.links[1] = [2, 7, 0, 4, 0, 'MODEL'];
    const prompt = plain(toApiPrompt(uiToApi(graph, info).graph));
    expect(prompt['4']?.inputs.model).toEqual(['1', 0]);
    expect(prompt['8']).toBeUndefined();
    expect(prompt['7']).toBeUndefined();
  });

  it("takes a PrimitiveNode's value for the widget it feeds, and leaves Notes out", () => {
    const graph = ui([
      { id: 9, type: 'PrimitiveNode', mode: 0, title: 'steps', widgets_values: [33, 'fixed'], inputs: [] },
      { id: 10, type: 'Note', mode: 0, widgets_values: ['hello'], inputs: [] },
    ], [[12, 9, 0, 4, 4, 'INT']]);
    graph.nodes[3]!.inputs.push({ name: 'steps', type: 'INT', link: 12, widget: { name: 'steps' } });
    const prompt = plain(toApiPrompt(uiToApi(graph, info).graph));
    expect(prompt['4']?.inputs.steps).toBe(33);
    expect(Object.keys(prompt)).not.toContain('10');
  });

  it('says when a node has more widget values than the class has widgets', () => {
    const { notes } = uiToApi(ui([], [], [7, 'randomize', 20, 8, 'euler', 'normal', 1, 'extra']), info);
    expect(notes).toEqual(["node 4 (KSampler) has 8 widget values where this ComfyUI's KSampler has 7; check its fields"]);
  });

  it('refuses a class the server lacks, naming the pack that provides it', () => {
    const graph = ui([{ id: 11, type: 'FaceDetailer', mode: 0, widgets_values: [512], inputs: [] }]);
    expect(() => uiToApi(graph, info)).toThrow(new PipelineError("node 11 (FaceDetailer): this ComfyUI has no 'FaceDetailer' node (it usually comes from ComfyUI-Impact-Pack), so its widget values cannot be read; install it, or export the workflow with Export (API)"));
  });

  it('refuses subgraphs in one line', () => {
    const graph = { ...ui([{ id: 12, type: '5c0ffee0-0000-4000-8000-000000000000', mode: 0, inputs: [] }]), definitions: { subgraphs: [{ id: '5c0ffee0-0000-4000-8000-000000000000' }] } };
    expect(() => uiToApi(graph, info)).toThrow(/node 12 is a subgraph or group node, which Atelier does not unpack yet/);
  });

  it('refuses in one line when the server cannot be reached, and needs no server for the API format', () => {
    expect(() => importPipeline({ ui: fixtureText('sd35', 'ui') }, { unreachable: 'ComfyUI is not running at http://127.0.0.1:8188 (connection refused)' }))
      .toThrow("a UI-format workflow needs the ComfyUI server's node list to read its widgets, and ComfyUI is not running at http://127.0.0.1:8188 (connection refused); start ComfyUI (or choose its backend), or use Export (API) in ComfyUI");
    expect(importPipeline({ api: fixtureText('sd35', 'api') }).discovery.choices.length).toBe(5);
  });
});
