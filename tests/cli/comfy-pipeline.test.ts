/**
 * A ComfyUI workflow as a node, run from the CLI on the ComfyUI double: the Chat prompt writer
 * feeds the FLUX.1 dev workflow's prompt port, `--set` reaches its fields, a chat list fans the
 * SD 3.5 workflow out into a contact sheet, an SDXL picture goes through an upscale workflow, the manifest keeps the workflow as sent, its classes and ComfyUI's file names;
 * without a ComfyUI backend the node is a problem before the run; a custom node a stock ComfyUI
 * lacks is named with its pack before anything is queued.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPipeline } from '../../api/backends/comfyui/pipeline/import';
import { comfyWorkflowParams } from '../../nodes/comfy-workflow';
import type { Workflow } from '../../workflow/schema';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { fixtureText, recordedObjectInfo } from '../backends/comfyui/pipeline/fixtures';
import { onlyRunDir, readManifest, runCli, tempDir } from './helpers';

let comfy: ComfyDouble;
beforeAll(async () => {
  comfy = await startComfyDouble({ checkpoints: ['sd_xl_base_1.0.safetensors', 'sd3.5_large_fp8_scaled.safetensors'], unets: ['flux1-dev.safetensors'], textEncoders: ['clip_l.safetensors', 't5xxl_fp16.safetensors'], vaes: ['ae.safetensors'] });
});
afterAll(() => comfy.close());

/** The FLUX example as a node, its prompt a port, drawn small so the double's pictures stay cheap. */
function fluxWorkflow(): Workflow {
  const params = comfyWorkflowParams(importPipeline({ api: fixtureText('flux-dev', 'api') }, { info: recordedObjectInfo() }), 'flux_dev_example.png');
  params.fields = params.fields.map((f) => (f.name === 'prompt' ? { ...f, as: 'port' as const } : f));
  delete params.values.prompt;
  params.values.width = 64;
  params.values.height = 64;
  return {
    format: 'atelier.workflow', version: 1,
    metadata: { title: 'FLUX from chat', description: 'test', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' },
    nodes: [
      { id: 'subject', type: 'text', position: { x: 0, y: 0 }, params: { text: 'a fox in the snow' } },
      { id: 'writer', type: 'chat-prompt-writer', position: { x: 300, y: 0 }, params: { max_tokens: 40, user: 'Write an image prompt about {{subject}}.' } },
      { id: 'flux', type: 'comfy-workflow', title: 'FLUX.1 dev', position: { x: 600, y: 0 }, params },
      { id: 'preview', type: 'preview', position: { x: 900, y: 0 }, params: { filename: 'flux' } },
    ],
    edges: [
      { id: 'e1', source: { node: 'subject', port: 'text' }, target: { node: 'writer', port: 'subject' } },
      { id: 'e2', source: { node: 'writer', port: 'text' }, target: { node: 'flux', port: 'prompt' } },
      { id: 'e3', source: { node: 'flux', port: 'images' }, target: { node: 'preview', port: 'value' } },
    ],
  };
}

function write(workflow: Workflow): { cwd: string; file: string } {
  const cwd = tempDir();
  const file = join(cwd, 'flow.json');
  writeFileSync(file, JSON.stringify(workflow, null, 2));
  return { cwd, file };
}

const comfyFlags = () => ['--image-backend', 'comfyui', '--backend-url', comfy.url];

describe('a ComfyUI workflow node from the CLI', () => {
  it('runs the FLUX workflow with the chat prompt in its port and --set on its seed', async () => {
    const { cwd, file } = write(fluxWorkflow());
    const before = comfy.received.prompts.length;
    const first = await runCli(['run', file, ...comfyFlags(), '--set', 'flux.seed=7'], { cwd });
    expect(first.stderr).not.toMatch(/failed|problem/i);
    expect(first.code).toBe(0);
    expect(comfy.received.prompts.length).toBe(before + 1);
    const sent = comfy.received.prompts.at(-1)?.prompt as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
    expect(sent['6']?.inputs.text).toMatch(/fox/i);
    expect(sent['25']?.inputs.noise_seed).toBe(7);
    expect([sent['27']?.inputs.width, sent['30']?.inputs.height]).toEqual([64, 64]);

    const dir = onlyRunDir(cwd);
    // The node's own output and the Preview's.
    expect(readdirSync(dir).filter((f) => f.endsWith('.png')).sort()).toEqual(['flux-0.png', 'flux-images-0.png']);
    const manifest = readManifest(dir) as unknown as { nodes: Record<string, { requests?: { operation: string; request: { classes: string[]; comfyui_files: string[]; sent: { nodes: unknown[] } } }[] }> };
    const call = manifest.nodes.flux?.requests?.[0];
    expect(call?.operation).toBe('pipeline');
    expect(call?.request.classes).toEqual(['BasicGuider', 'BasicScheduler', 'CLIPTextEncode', 'DualCLIPLoader', 'EmptySD3LatentImage', 'FluxGuidance', 'KSamplerSelect', 'ModelSamplingFlux', 'RandomNoise', 'SamplerCustomAdvanced', 'SaveImage', 'UNETLoader', 'VAEDecode', 'VAELoader']);
    expect(call?.request.comfyui_files).toEqual([expect.stringMatching(/^ComfyUI_\d{5}_\.png$/)]);
    expect(call?.request.sent.nodes).toHaveLength(14);
    expect(JSON.stringify(manifest)).not.toContain(comfy.url);

    // The CLI keeps no cache between runs: a changed field reaches ComfyUI the next time.
    const again = await runCli(['run', file, ...comfyFlags(), '--set', 'flux.seed=8'], { cwd });
    expect(again.code).toBe(0);
    expect(comfy.received.prompts.length).toBe(before + 2);
    expect((comfy.received.prompts.at(-1)?.prompt as Record<string, { inputs: Record<string, unknown> }>)['25']?.inputs.noise_seed).toBe(8);
  }, 120_000);

  it('fans the SD 3.5 workflow out over a chat list, into a contact sheet', async () => {
    const params = comfyWorkflowParams(importPipeline({ api: fixtureText('sd35', 'api') }, { info: recordedObjectInfo() }), 'sd3.5_simple_example.png');
    params.fields = params.fields.map((f) => (f.name === 'prompt' ? { ...f, as: 'port' as const } : f));
    delete params.values.prompt;
    Object.assign(params.values, { width: 64, height: 64 });
    const workflow = fluxWorkflow();
    workflow.nodes = [
      { id: 'writer', type: 'chat-prompt-writer', position: { x: 0, y: 0 }, params: { max_tokens: 200, answer_as: 'lines', user: 'Write eight short image prompts about a harbour at dusk, one per line.' } },
      { id: 'sd35', type: 'comfy-workflow', position: { x: 300, y: 0 }, params },
      { id: 'sheet', type: 'contact-sheet', position: { x: 600, y: 0 }, params: { cell_size: 64 } },
    ];
    workflow.edges = [
      { id: 'e1', source: { node: 'writer', port: 'items' }, target: { node: 'sd35', port: 'prompt' } },
      { id: 'e2', source: { node: 'sd35', port: 'images' }, target: { node: 'sheet', port: 'images' } },
      { id: 'e3', source: { node: 'writer', port: 'items' }, target: { node: 'sheet', port: 'captions' } },
    ];
    const { cwd, file } = write(workflow);
    const before = comfy.received.prompts.length;
    const run = await runCli(['run', file, ...comfyFlags()], { cwd });
    expect(run.stderr).not.toMatch(/failed/);
    expect(run.code).toBe(0);
    const sent = comfy.received.prompts.slice(before).map((p) => (p.prompt as Record<string, { inputs: Record<string, unknown> }>)['16']?.inputs.text);
    // One queued workflow per item of the list, each with its own prompt.
    expect(sent.length).toBeGreaterThan(1);
    expect(new Set(sent).size).toBe(sent.length);
    expect(readdirSync(onlyRunDir(cwd)).filter((f) => f.startsWith('sheet'))).toHaveLength(1);
  }, 120_000);

  it('feeds an SDXL picture into an upscale workflow, which uploads it by content and doubles it', async () => {
    const upscale = {
      1: { class_type: 'LoadImage', inputs: { image: 'example.png' }, _meta: { title: 'Picture' } },
      2: { class_type: 'UpscaleModelLoader', inputs: { model_name: 'RealESRGAN_x2.pth' } },
      3: { class_type: 'ImageUpscaleWithModel', inputs: { upscale_model: ['2', 0], image: ['1', 0] } },
      4: { class_type: 'SaveImage', inputs: { images: ['3', 0], filename_prefix: 'upscaled' }, _meta: { title: 'Upscaled' } },
    };
    const workflow = fluxWorkflow();
    workflow.nodes = [
      { id: 'draw', type: 'text-to-image', position: { x: 0, y: 0 }, params: { engine: 'sdxl', prompt: 'a lighthouse', width: 1024, height: 1024, seed: 3, steps: 4 } },
      { id: 'up', type: 'comfy-workflow', position: { x: 300, y: 0 }, params: comfyWorkflowParams(importPipeline({ api: JSON.stringify(upscale) }), 'upscale.json') },
    ];
    workflow.edges = [{ id: 'e', source: { node: 'draw', port: 'image' }, target: { node: 'up', port: 'image' } }];
    const { cwd, file } = write(workflow);
    const uploads = comfy.received.uploads.length;
    const run = await runCli(['run', file, ...comfyFlags(), '--checkpoint', 'sdxl=sd_xl_base_1.0.safetensors'], { cwd });
    expect(run.stderr).not.toMatch(/failed/);
    expect(run.code).toBe(0);
    const sent = comfy.received.prompts.at(-1)?.prompt as Record<string, { inputs: Record<string, unknown> }>;
    expect(sent['1']?.inputs.image).toMatch(/^atelier-[0-9a-f]{32}\.png$/);
    expect(comfy.received.uploads.slice(uploads).map((u) => u.name)).toEqual([sent['1']?.inputs.image]);
    const out = readdirSync(onlyRunDir(cwd)).filter((f) => f.startsWith('up-'));
    expect(out).toHaveLength(1);
    expect((await sharp(join(onlyRunDir(cwd), out[0]!)).metadata()).width).toBe(2048);
  }, 120_000);

  it('names the fields --set can reach when one is misspelt', async () => {
    const { cwd, file } = write(fluxWorkflow());
    const run = await runCli(['run', file, ...comfyFlags(), '--set', 'flux.sede=7'], { cwd });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("--set flux.sede: the ComfyUI workflow 'flux' has no field 'sede'; its fields are seed, width, height");
  });

  it('without a ComfyUI backend, the node is a warning before the run that says how to choose one, then fails with it', async () => {
    const { cwd, file } = write(fluxWorkflow());
    const before = comfy.received.prompts.length;
    const run = await runCli(['run', file], { cwd });
    expect(run.code).not.toBe(0);
    const needs = 'this node runs a ComfyUI workflow, which needs a ComfyUI backend: choose ComfyUI in Settings → Image backend (directly from the browser), or run the CLI with --image-backend comfyui';
    expect(run.stderr).toContain(`atelier: warning: node 'flux': ${needs}`);
    expect(run.stderr).toMatch(new RegExp(`failed +flux +after \\d+ ms: ${needs.replace(/[()]/g, '\\$&')}`));
    expect(comfy.received.prompts.length).toBe(before);
  });

  it('a custom node a stock ComfyUI lacks is named with its pack, and nothing is queued', async () => {
    const params = comfyWorkflowParams(importPipeline({ api: fixtureText('face-detail', 'api') }), 'face-detail.json');
    const workflow = fluxWorkflow();
    workflow.nodes = [
      { id: 'photo', type: 'image-loader', position: { x: 0, y: 0 }, params: { image: { b64: TINY_PNG, mime: 'image/png', name: 'p.png', width: 1, height: 1 } } },
      { id: 'face', type: 'comfy-workflow', position: { x: 300, y: 0 }, params },
    ];
    workflow.edges = [{ id: 'e', source: { node: 'photo', port: 'image' }, target: { node: 'face', port: 'image' } }];
    const { cwd, file } = write(workflow);
    const before = comfy.received.prompts.length;
    const run = await runCli(['run', file, ...comfyFlags()], { cwd });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("this ComfyUI has no 'FaceDetailer' node (node 6, Face Detailer); it usually comes from ComfyUI-Impact-Pack: install it (ComfyUI-Manager can) and restart ComfyUI");
    expect(comfy.received.prompts.length).toBe(before);
  });
});

/** A 1×1 PNG. */
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
