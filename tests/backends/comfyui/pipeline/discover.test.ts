import { describe, expect, it } from 'vitest';
import { discoverInputs } from '../../../../api/backends/comfyui/pipeline/discover';
import { importPipeline } from '../../../../api/backends/comfyui/pipeline/import';
import { parseApiWorkflow } from '../../../../api/backends/comfyui/pipeline/model';
import { FAMILIES, fixtureText, recordedObjectInfo, type Family } from './fixtures';

const info = recordedObjectInfo();
const summary = (family: Family, format: 'api' | 'ui') => {
  const imported = importPipeline(format === 'api' ? { api: fixtureText(family, 'api') } : { ui: fixtureText(family, 'ui') }, { info });
  return {
    choices: imported.discovery.choices.map((c) => `${c.name} ${c.as} ${c.kind} ${c.targets.map((t) => `${t.node}.${t.input}`).join('+')}`),
    outputs: imported.discovery.outputs.map((o) => `${o.name} ${o.kind} ${o.node}`),
  };
};

describe('default fields and ports, on real exported workflows of each family', () => {
  const expected: Record<Family, string[]> = {
    'flux-dev': ['prompt field text 6.text', 'seed field number 25.noise_seed', 'width field number 27.width+30.width', 'height field number 27.height+30.height'],
    sd35: ['prompt field text 16.text', 'negative_prompt field text 40.text', 'seed field number 3.seed', 'width field number 53.width', 'height field number 53.height'],
    'esrgan-upscale': ['prompt field text 6.text', 'negative_prompt field text 7.text', 'seed field number 3.seed', 'width field number 5.width', 'height field number 5.height'],
    'sdxl-refiner': ['prompt field text 6.text+15.text', 'negative_prompt field text 7.text+16.text', 'seed field number 10.noise_seed+11.noise_seed', 'width field number 5.width', 'height field number 5.height'],
    img2img: ['prompt field text 6.text', 'negative_prompt field text 7.text', 'seed field number 3.seed', 'image port image 10.image'],
    inpaint: ['prompt field text 6.text', 'negative_prompt field text 7.text', 'seed field number 3.seed', 'image port image 20.image'],
    lora: ['prompt field text 6.text', 'negative_prompt field text 7.text', 'seed field number 3.seed', 'width field number 5.width', 'height field number 5.height'],
  };
  for (const family of FAMILIES) {
    it(`${family}: the prompts feeding the sampler, the seed, the size, each LoadImage`, () => {
      const api = summary(family, 'api');
      expect(api.choices).toEqual(expected[family]);
      // The same picture's UI-format graph gives the same choice.
      expect(summary(family, 'ui').choices).toEqual(expected[family]);
    });
  }

  it('each SaveImage is an image list output named by its title', () => {
    expect(summary('sd35', 'api').outputs).toEqual(['images images 9']);
    // The UI format's node has the display name as its title (the double's display name is the class).
    expect(summary('sd35', 'ui').outputs).toEqual(['saveimage images 9']);
    const two = importPipeline({ api: JSON.stringify({
      1: { class_type: 'LoadImage', inputs: { image: 'a.png' } },
      2: { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' }, _meta: { title: 'Final' } },
      3: { class_type: 'PreviewImage', inputs: { images: ['1', 0] }, _meta: { title: 'Ébauche' } },
      4: { class_type: 'PreviewImage', inputs: { images: ['1', 0] }, _meta: { title: 'Final' } },
      5: { class_type: 'PreviewAny', inputs: { source: ['1', 0] }, _meta: { title: '説明' } },
    }) });
    expect(two.discovery.outputs.map((o) => [o.name, o.label, o.kind])).toEqual([
      ['final', 'Final', 'images'], ['ebauche', 'Ébauche', 'images'], ['final_2', 'Final', 'images'], ['text_5', '説明', 'texts'],
    ]);
  });
});

describe('every literal input, grouped by node', () => {
  it("groups under the node's title, in ComfyUI's input order, with the type from /object_info", () => {
    const { graph } = importPipeline({ ui: fixtureText('sd35', 'ui') }, { info });
    const groups = discoverInputs(graph, info);
    const sampler = groups.find((g) => g.node === '3');
    expect(sampler?.title).toBe('KSampler');
    expect(sampler?.inputs.map((i) => `${i.input}:${i.type}`)).toEqual(['seed:INT', 'steps:INT', 'cfg:FLOAT', 'sampler_name:COMBO', 'scheduler:COMBO', 'denoise:FLOAT']);
    expect(sampler?.inputs[3]?.choices).toContain('euler');
    expect(groups.find((g) => g.node === '16')?.title).toBe('Positive Prompt');
  });

  it('without /object_info, infers the type from the value', () => {
    const graph = parseApiWorkflow(JSON.parse(fixtureText('sd35', 'api')));
    const sampler = discoverInputs(graph).find((g) => g.node === '3');
    expect(sampler?.inputs.map((i) => `${i.input}:${i.type}:${i.known}`)).toEqual([
      'cfg:FLOAT:false', 'denoise:INT:false', 'sampler_name:STRING:false', 'scheduler:STRING:false', 'seed:INT:false', 'steps:INT:false',
    ]);
  });
});
