/**
 * The editor's side of the ComfyUI workflow node, without a DOM: a chosen or dropped file read
 * into the node's params (JSON, a PNG ComfyUI saved; a UI-format file converted with the server's
 * node list or refused in one line), the author's choice per input, and what a drop is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PipelineError, fromStored, type StoredPipeline } from '../../api/backends/comfyui/pipeline/model';
import { checkNodeParams } from '../../nodes/check-params';
import { comfyWorkflowNode, type ComfyWorkflowParams } from '../../nodes/comfy-workflow';
import { resolveInputs } from '../../nodes/ports';
import { askObjectInfo, chooseWorkflow, comfyBaseUrl, comfyServer, sourceOfBytes } from '../../src/comfy/choose';
import { choicesFor, relabelChoice, setInputChoice } from '../../src/comfy/choices';
import { carriesComfyOnly, isComfyWorkflowJson } from '../../src/comfy/drop';
import { planFields } from '../../src/forms/field-plan';
import { NO_IMAGE_BACKENDS, type ImageBackendSettings } from '../../src/settings/backend-types';
import { inputsFor } from '../../src/store/ports';
import { embedWorkflow } from '../../workflow/embed';
import { pngWith } from '../helpers/comfy-png';
import { fixtureText, recordedObjectInfo, recordedObjectInfoJson } from '../backends/comfyui/pipeline/fixtures';

const bytes = (text: string) => new TextEncoder().encode(text);
const info = recordedObjectInfo();
const reached = () => Promise.resolve({ info });
const unreachable = () => Promise.resolve({ unreachable: 'the ComfyUI server at http://127.0.0.1:8188 could not be reached' });
const problems = (params: ComfyWorkflowParams) => {
  const check = checkNodeParams(comfyWorkflowNode, params as unknown as Record<string, unknown>, new Set());
  return check.ok ? [] : check.problems;
};
const graphOf = (p: ComfyWorkflowParams) => fromStored(p.pipeline as StoredPipeline);

describe('choosing a workflow file for a ComfyUI workflow node', () => {
  it('reads an API-format file with no server, with the default choice and the file name', async () => {
    const { params } = await chooseWorkflow(bytes(fixtureText('flux-dev', 'api')), 'flux-dev.json', unreachable);
    expect(params.source).toBe('flux-dev.json');
    expect(params.fields.map((c) => [c.name, c.as])).toEqual([['prompt', 'field'], ['seed', 'field'], ['width', 'field'], ['height', 'field']]);
    expect(params.outputs.map((o) => [o.name, o.kind])).toEqual([['images', 'images']]);
    expect(problems(params)).toEqual([]);
  });

  it('reads the API format a PNG carries, and says when a PNG carries none', async () => {
    const png = await pngWith([['tEXt', 'prompt', fixtureText('sd35', 'api')], ['tEXt', 'workflow', fixtureText('sd35', 'ui')]]);
    expect(sourceOfBytes(png, 'sd35.png')).toEqual({ api: fixtureText('sd35', 'api'), ui: fixtureText('sd35', 'ui') });
    const { params } = await chooseWorkflow(png, 'sd35.png', unreachable);
    expect(params.fields.map((c) => c.name)).toContain('prompt');
    expect(() => sourceOfBytes(bytes('x'), 'x.json')).not.toThrow();
    const plain = await pngWith([]);
    expect(() => sourceOfBytes(plain, 'cat.png')).toThrow(new PipelineError("'cat.png' carries no ComfyUI workflow (ComfyUI's SaveImage writes it into the PNGs it saves)"));
  });

  it('converts a UI-format file with the server reached, and refuses it in one line without', async () => {
    const { params } = await chooseWorkflow(bytes(fixtureText('img2img', 'ui')), 'img2img.json', reached);
    expect(params.fields.map((c) => [c.name, c.as, c.kind])).toContainEqual(['image', 'port', 'image']);
    expect(problems(params)).toEqual([]);
    await expect(chooseWorkflow(bytes(fixtureText('img2img', 'ui')), 'img2img.json', unreachable)).rejects.toThrow(
      /^a UI-format workflow needs the ComfyUI server's node list to read its widgets, and the ComfyUI server at http:\/\/127\.0\.0\.1:8188 could not be reached; .*Export \(API\)/,
    );
  });

  it('finds the ComfyUI of the settings, and asks it for its node list without saying more of its URL than the origin', async () => {
    expect(comfyBaseUrl(NO_IMAGE_BACKENDS)).toBeUndefined();
    const all: ImageBackendSettings = { all: { kind: 'comfyui', fields: {} }, engines: {} };
    expect(comfyBaseUrl(all)).toBe('http://127.0.0.1:8188');
    const flux: ImageBackendSettings = { all: { kind: 'service', fields: {} }, engines: { flux_dev: { kind: 'comfyui', fields: { comfyui: { baseUrl: 'http://gpu:8188/', checkpoints: {}, refiner: '', model: '', assets: [] } } } } } as ImageBackendSettings;
    expect(comfyBaseUrl(flux)).toBe('http://gpu:8188');

    const asked: string[] = [];
    const answer = (async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(recordedObjectInfoJson()), { status: 200 });
    }) as typeof fetch;
    const got = await askObjectInfo('http://127.0.0.1:8188', answer);
    expect(asked).toEqual(['http://127.0.0.1:8188/object_info']);
    expect('info' in got && got.info.has('KSampler')).toBe(true);

    const down = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
    const why = await askObjectInfo('http://gpu.lan:8188/comfy?token=abc123', down);
    expect(why).toEqual({ unreachable: 'the ComfyUI server at http://gpu.lan:8188 could not be reached (is it running, started with --enable-cors-header for this page?)' });
    expect(await askObjectInfo('http://user:s3cret@gpu.lan:8188', down)).toEqual({
      unreachable: "the ComfyUI base URL in Settings (http://gpu.lan:8188) carries a user name or password: put a proxy's token in the credential field instead",
    });
    expect(await askObjectInfo(undefined, down)).toEqual({ unreachable: 'no ComfyUI server is chosen in Settings → Image backend' });
    const refused = (() => Promise.resolve(new Response('no', { status: 403 }))) as typeof fetch;
    expect(await askObjectInfo('http://127.0.0.1:8188', refused)).toEqual({ unreachable: 'the ComfyUI server at http://127.0.0.1:8188 answered 403' });
  });

  it("sends the node-list request with the ComfyUI credential of the settings, in the Authorization header only", async () => {
    const backends: ImageBackendSettings = { all: { kind: 'comfyui', fields: { comfyui: { baseUrl: 'https://proxy.lan/comfy', checkpoints: {}, refiner: '', model: '', assets: [] } } }, engines: {} };
    const server = comfyServer(backends, { 'all:comfyui': ' tok-123 ', 'all:openai': 'other' });
    expect(server).toEqual({ baseUrl: 'https://proxy.lan/comfy', token: 'tok-123' });
    expect(comfyServer(backends, {})).toEqual({ baseUrl: 'https://proxy.lan/comfy' });
    const seen: { url: string; auth: string | null }[] = [];
    const answer = (async (url: string, init?: RequestInit) => {
      seen.push({ url, auth: new Headers(init?.headers).get('authorization') });
      return new Response(JSON.stringify(recordedObjectInfoJson()), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const got = await askObjectInfo(server, answer);
    expect('info' in got && got.info.has('KSampler')).toBe(true);
    expect(seen).toEqual([{ url: 'https://proxy.lan/comfy/object_info', auth: 'Bearer tok-123' }]);
    // A refusal names the status and the origin, never the token.
    const refused = (() => Promise.resolve(new Response('bad token tok-123', { status: 401 }))) as typeof fetch;
    const why = await askObjectInfo(server, refused);
    expect(why).toEqual({ unreachable: 'the ComfyUI server at https://proxy.lan answered 401' });
  });
});

describe("the author's choice for each input", () => {
  const flux = async () => (await chooseWorkflow(bytes(fixtureText('flux-dev', 'api')), 'flux-dev.json', reached)).params;

  it('offers what a kind can be: an image only a port, a JSON value only hidden', () => {
    expect(choicesFor('text')).toEqual(['hidden', 'field', 'port']);
    expect(choicesFor('number')).toEqual(['hidden', 'field', 'port']);
    expect(choicesFor('image')).toEqual(['hidden', 'port']);
    expect(choicesFor('mask')).toEqual(['hidden', 'port']);
    expect(choicesFor('json')).toEqual(['hidden']);
  });

  it('turns a field into a port (a text port for a prompt, a number port for a number) and back', async () => {
    const p = await flux();
    const prompt = p.fields.find((c) => c.name === 'prompt')!;
    const asPort = { ...p, ...setInputChoice(p, graphOf(p), prompt.targets[0]!, 'port', info) };
    expect(resolveInputs(comfyWorkflowNode, asPort).map((x) => [x.name, x.kind])).toEqual([['prompt', 'text']]);
    expect(Object.keys(asPort.values)).not.toContain('prompt');
    expect(problems(asPort)).toEqual([]);
    const seed = asPort.fields.find((c) => c.name === 'seed')!;
    const seedPort = { ...asPort, ...setInputChoice(asPort, graphOf(asPort), seed.targets[0]!, 'port', info) };
    expect(resolveInputs(comfyWorkflowNode, seedPort).map((x) => [x.name, x.kind])).toEqual([['prompt', 'text'], ['seed', 'number']]);
    const back = { ...seedPort, ...setInputChoice(seedPort, graphOf(seedPort), prompt.targets[0]!, 'field', info) };
    expect(back.values.prompt).toBe(p.values.prompt);
    expect(problems(back)).toEqual([]);
  });

  it('makes a hidden input a field with the workflow value and a label of its own, and hides it again', async () => {
    const p = await flux();
    const g = graphOf(p);
    const guidance = [...g.nodes.values()].find((n) => n.classType === 'FluxGuidance')!;
    const target = { node: guidance.id, input: 'guidance' };
    const shown = { ...p, ...setInputChoice(p, g, target, 'field', info) };
    const added = shown.fields.at(-1)!;
    expect(added).toEqual({ name: 'guidance', label: 'Guidance', as: 'field', kind: 'number', targets: [target] });
    expect(shown.values.guidance).toBe(3.5);
    expect(problems(shown)).toEqual([]);
    const relabelled = { ...shown, ...relabelChoice(shown, 'guidance', 'How closely to follow') };
    expect(relabelled.fields.at(-1)!.label).toBe('How closely to follow');
    expect(relabelled.fields.at(-1)!.name).toBe('guidance');
    const hidden = { ...relabelled, ...setInputChoice(relabelled, g, target, 'hidden', info) };
    expect(hidden.fields).toEqual(p.fields);
    expect(hidden.values).toEqual(p.values);
  });

  it('makes a LoadImage an image port and a LoadImageMask a mask port (an image port a mask wire fills)', async () => {
    const api = JSON.parse(fixtureText('inpaint', 'api')) as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
    api['90'] = { class_type: 'LoadImageMask', inputs: { image: 'example.png', channel: 'alpha' } };
    const { params } = await chooseWorkflow(bytes(JSON.stringify(api)), 'inpaint.json', reached);
    expect(params.fields.filter((c) => c.as === 'port').map((c) => [c.name, c.kind])).toEqual([['image', 'image'], ['mask', 'mask']]);
    expect(resolveInputs(comfyWorkflowNode, params).map((x) => [x.name, x.kind, x.optional === true])).toEqual([['image', 'image', false], ['mask', 'image', false]]);
    const hidden = { ...params, ...setInputChoice(params, graphOf(params), { node: '90', input: 'image' }, 'hidden', info) };
    expect(resolveInputs(comfyWorkflowNode, hidden).map((x) => x.name)).toEqual(['image']);
  });

  it('shows on the node face the file chooser and the chosen fields; the list of inputs and outputs in the inspector', async () => {
    const p = await flux();
    const fields = planFields(comfyWorkflowNode, p as unknown as Record<string, unknown>, inputsFor(comfyWorkflowNode, p as unknown as Record<string, unknown>));
    expect(fields.map((f) => [f.name, f.section])).toEqual([['pipeline', 'main'], ['fields', 'more'], ['outputs', 'more'], ['values', 'main']]);
  });
});

describe('what a file dropped on the canvas is', () => {
  it('tells a ComfyUI workflow JSON (API or UI format) from an Atelier one', () => {
    expect(isComfyWorkflowJson(fixtureText('flux-dev', 'api'))).toBe(true);
    expect(isComfyWorkflowJson(fixtureText('flux-dev', 'ui'))).toBe(true);
    const example = readFileSync(join(import.meta.dirname, '../../public/examples/chat-to-image.json'), 'utf8');
    expect(isComfyWorkflowJson(example)).toBe(false);
    expect(isComfyWorkflowJson('{"nodes": [], "edges": []}')).toBe(false);
    expect(isComfyWorkflowJson('not json')).toBe(false);
  });

  it('asks about a PNG ComfyUI saved, but not about one carrying an Atelier workflow, or none', async () => {
    const comfy = await pngWith([['tEXt', 'prompt', fixtureText('flux-dev', 'api')]]);
    expect(carriesComfyOnly(comfy)).toBe(true);
    const example = readFileSync(join(import.meta.dirname, '../../public/examples/chat-to-image.json'), 'utf8');
    expect(carriesComfyOnly(embedWorkflow(comfy, 'image/png', { workflow: example }))).toBe(false);
    expect(carriesComfyOnly(await pngWith([]))).toBe(false);
  });
});
