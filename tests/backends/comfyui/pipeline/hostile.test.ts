import { describe, expect, it } from 'vitest';
import { checkPipeline } from '../../../../api/backends/comfyui/pipeline/check';
import { importPipeline } from '../../../../api/backends/comfyui/pipeline/import';
import { PipelineError, fromStored, parseApiWorkflow, pipelineHash, toApiPrompt, toStored } from '../../../../api/backends/comfyui/pipeline/model';
import { fixtureText } from './fixtures';

const api = (prompt: Record<string, unknown>) => ({ api: JSON.stringify(prompt) });

describe('hostile pipelines are refused or made inert, with a reason', () => {
  it('a cycle, naming its nodes', () => {
    expect(() => importPipeline(api({
      1: { class_type: 'VAEDecode', inputs: { samples: ['2', 0] } },
      2: { class_type: 'KSampler', inputs: { latent_image: ['1', 0] }, _meta: { title: 'Sampler' } },
    }))).toThrow(new PipelineError('the workflow loops back on itself: 1 (VAEDecode) → 2 (Sampler) → 1 (VAEDecode)'));
  });

  it('a link to a missing node, naming the node and input', () => {
    expect(() => importPipeline(api({ 1: { class_type: 'VAEDecode', inputs: { samples: ['99', 0] } } })))
      .toThrow(new PipelineError('node 1 (VAEDecode), input samples: links to node 99, which is not in the workflow'));
  });

  it('10,000 nodes', () => {
    const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [String(i), { class_type: 'Note', inputs: {} }]));
    expect(() => importPipeline(api(many))).toThrow('the workflow has 10000 nodes; Atelier takes at most 5000');
  });

  it('50 MB of text, before parsing it', () => {
    const big = `{"1":{"class_type":"Note","inputs":{"text":"${'x'.repeat(50 * 1024 * 1024)}"}}}`;
    expect(() => importPipeline({ api: big })).toThrow('the API-format workflow is 50 MB; Atelier reads at most 20 MB');
  });

  it('__proto__ as a node id and an input name stays data', () => {
    const text = '{"__proto__":{"class_type":"CLIPTextEncode","inputs":{"__proto__":"polluted","text":"hi"}},"2":{"class_type":"SaveImage","inputs":{"images":["__proto__",0]}}}';
    const imported = importPipeline({ api: text });
    expect(imported.graph.nodes.get('__proto__')?.inputs.get('__proto__')).toEqual({ kind: 'value', value: 'polluted' });
    const again = fromStored(imported.stored);
    expect([...again.nodes.keys()]).toEqual(['2', '__proto__']);
    const sent = JSON.parse(JSON.stringify(toApiPrompt(again))) as Record<string, unknown>;
    expect(Object.keys(sent)).toEqual(['2', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(sent)).toBe(Object.prototype);
  });

  it('non-ASCII titles are kept, and names made from them stay ASCII', () => {
    const imported = importPipeline(api({
      1: { class_type: 'LoadImage', inputs: { image: 'a.png' }, _meta: { title: '写真' } },
      2: { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: 'x' }, _meta: { title: 'Résultat ✨' } },
    }));
    expect(imported.graph.nodes.get('1')?.title).toBe('写真');
    expect(imported.discovery.choices.map((c) => [c.name, c.label])).toEqual([['image', '写真']]);
    expect(imported.discovery.outputs.map((o) => [o.name, o.label])).toEqual([['resultat', 'Résultat ✨']]);
  });

  it("a LoadImage of ../../etc/passwd is a problem on that input, before anything is sent", () => {
    const { graph } = importPipeline(api({
      1: { class_type: 'LoadImage', inputs: { image: '../../etc/passwd' }, _meta: { title: 'Secrets' } },
      2: { class_type: 'SaveImage', inputs: { images: ['1', 0], filename_prefix: '/tmp/evil' } },
    }));
    expect(checkPipeline(graph, undefined)).toEqual([
      { node: '1', input: 'image', message: "Secrets's image '../../etc/passwd' points outside ComfyUI's input folder; refused" },
      { node: '2', input: 'filename_prefix', message: "SaveImage's filename_prefix '/tmp/evil' points outside ComfyUI's output folder; refused" },
    ]);
  });

  it('a list that is not a link, and malformed nodes', () => {
    expect(() => importPipeline(api({ 1: { class_type: 'X', inputs: { a: [1, 2, 3] } } }))).toThrow('node 1 (X), input a: a list must be a link');
    expect(() => importPipeline(api({ 1: { inputs: {} } }))).toThrow('node 1 has no class_type');
    expect(() => importPipeline({ api: '[1,2]' })).toThrow('this is not an API-format ComfyUI workflow: expected an object of nodes by id');
    expect(() => importPipeline({ api: '{"1": ' })).toThrow(/the API-format workflow is not JSON/);
  });
});

describe('credentials typed into a pipeline are removed, naming the node and input', () => {
  it('API keys in widgets, and key-shaped values anywhere', () => {
    const imported = importPipeline(api({
      1: { class_type: 'OpenAIChatNode', inputs: { prompt: 'a cat', api_key: 'sk-abcdefghijklmnopqrstuvwxyz123456' }, _meta: { title: 'Ask GPT' } },
      2: { class_type: 'FluxProNode', inputs: { prompt: 'a dog', api_key_comfy_org: 'comfyui-0123456789abcdef0123456789abcdef', max_tokens: 200 } },
      3: { class_type: 'CLIPTextEncode', inputs: { text: 'use sk-abcdefghijklmnopqrstuvwxyz123456 please' } },
    }));
    expect(imported.notes).toEqual([
      expect.stringMatching(/^removed what ComfyUI node 1 \(Ask GPT\) held in its input api_key: it names or holds a credential/),
      expect.stringMatching(/^removed what ComfyUI node 2 \(FluxProNode\) held in its input api_key_comfy_org/),
      expect.stringMatching(/^removed what ComfyUI node 3 \(CLIPTextEncode\) held in its input text/),
    ]);
    const text = JSON.stringify(imported.stored);
    expect(text).not.toMatch(/sk-abc|comfyui-0123/);
    expect(imported.graph.nodes.get('2')?.inputs.get('max_tokens')).toEqual({ kind: 'value', value: 200 });
  });
});

describe('the stored form and its hash', () => {
  it('is the same for the same content in any key order, and changes with any value', () => {
    const a = parseApiWorkflow(JSON.parse(fixtureText('sd35', 'api')));
    const shuffled = Object.fromEntries(Object.entries(JSON.parse(fixtureText('sd35', 'api')) as Record<string, { inputs: Record<string, unknown> }>).reverse()
      .map(([id, node]) => [id, { ...node, inputs: Object.fromEntries(Object.entries(node.inputs).reverse()) }]));
    const b = parseApiWorkflow(shuffled);
    expect(toStored(a)).toEqual(toStored(b));
    expect(pipelineHash(toStored(a))).toBe(pipelineHash(toStored(b)));
    expect(pipelineHash(toStored(a))).toMatch(/^[0-9a-f]{64}$/);
    b.nodes.get('3')?.inputs.set('steps', { kind: 'value', value: 21 });
    expect(pipelineHash(toStored(b))).not.toBe(pipelineHash(toStored(a)));
    expect(toStored(a).nodes.map((n) => n.id)).toEqual(['3', '4', '8', '9', '16', '40', '53']);
  });
});
