/**
 * A ComfyUI pipeline as a node: reading a 300-node API-format workflow, discovering its inputs,
 * fields, ports and outputs against a recorded `/object_info`, and checking it before sending.
 * The editor does this when a file is dropped and again before every run, so it must stay
 * well under a frame's worth of a person's patience.
 *
 * And the pipeline's image inputs on their way to ComfyUI (pipeline-images.ts): an image wired into
 * a ComfyUI workflow node is decoded at most once per run however many LoadImage inputs it feeds
 * (it is uploaded as bytes), never re-encoded (the double receives the input's own bytes), and a
 * picture ComfyUI makes is encoded once, as the backends bench holds the built-in nodes to.
 */
import { performance } from 'node:perf_hooks';
import { checkPipeline } from '../api/backends/comfyui/pipeline/check';
import { discoverPipeline } from '../api/backends/comfyui/pipeline/discover';
import { importPipeline } from '../api/backends/comfyui/pipeline/import';
import { fromStored } from '../api/backends/comfyui/pipeline/model';
import { readObjectInfo } from '../api/backends/comfyui/pipeline/object-info';
import { nodeClasses, nodeInfo } from '../tests/helpers/doubles/comfyui-nodes';
import { median, type BenchResult, type Benchmark } from './harness';
import { pipelineImageFigures } from './pipeline-images';

const RUNS = 30;

/** One checkpoint and latent, then 49 branches of prompt, negative, sampler, decode, save and a loaded image: 296 nodes. */
function pipelineOf(branches: number): string {
  const prompt: Record<string, unknown> = {
    1: { class_type: 'CheckpointLoaderSimple', inputs: { ckpt_name: 'sd_xl_base_1.0.safetensors' } },
    2: { class_type: 'EmptyLatentImage', inputs: { width: 1024, height: 1024, batch_size: 1 } },
  };
  for (let b = 0; b < branches; b++) {
    const id = (k: number) => String(10 + b * 6 + k);
    prompt[id(0)] = { class_type: 'CLIPTextEncode', inputs: { text: `a harbour at dusk, boat ${b}`, clip: ['1', 1] }, _meta: { title: `Prompt ${b}` } };
    prompt[id(1)] = { class_type: 'CLIPTextEncode', inputs: { text: 'blurry', clip: ['1', 1] } };
    prompt[id(2)] = { class_type: 'KSampler', inputs: { seed: b, steps: 20, cfg: 7, sampler_name: 'euler', scheduler: 'normal', denoise: 1, model: ['1', 0], positive: [id(0), 0], negative: [id(1), 0], latent_image: ['2', 0] } };
    prompt[id(3)] = { class_type: 'VAEDecode', inputs: { samples: [id(2), 0], vae: ['1', 2] } };
    prompt[id(4)] = { class_type: 'SaveImage', inputs: { images: [id(3), 0], filename_prefix: `shot${b}` }, _meta: { title: `Shot ${b}` } };
    prompt[id(5)] = { class_type: 'LoadImage', inputs: { image: `ref${b}.png` } };
  }
  return JSON.stringify(prompt);
}

const bench: Benchmark = {
  name: 'comfy-pipeline',
  run(): Promise<BenchResult[]> {
    const models = { checkpoints: ['sd_xl_base_1.0.safetensors'], loras: [], vaes: [], controlnets: [], embeddings: [], unets: [], textEncoders: [], upscalers: [], inputs: new Map<string, Uint8Array>() };
    const infoJson = JSON.stringify(Object.fromEntries(Object.entries(nodeClasses(models)).map(([name, cls]) => [name, nodeInfo(name, cls)])));
    const info = readObjectInfo(JSON.parse(infoJson));
    const text = pipelineOf(49);
    const imports: number[] = [];
    const checks: number[] = [];
    let nodes = 0;
    let problems = 0;
    for (let i = 0; i < RUNS + 3; i++) {
      // A dropped file: parse, scrub, normalise, hash, discover.
      let start = performance.now();
      const imported = importPipeline({ api: text }, { info });
      const importMs = performance.now() - start;
      // Before every run: the node's stored pipeline read back, discovered and checked.
      start = performance.now();
      const graph = fromStored(imported.stored);
      const fed = discoverPipeline(graph, info).choices.flatMap((c) => (c.as === 'port' ? c.targets : []));
      problems = checkPipeline(graph, info, fed).length;
      const checkMs = performance.now() - start;
      nodes = graph.nodes.size;
      if (i >= 3) {
        imports.push(importMs);
        checks.push(checkMs);
      }
    }
    return pipelineImageFigures().then((images) => [
      ...images,
      {
        name: `discovery + check of a ${nodes}-node pipeline`, value: median(checks), unit: 'ms', target: 20, better: 'lower',
        note: `the stored pipeline read back, fields/ports/outputs discovered, checked against /object_info (${problems} problems), median of ${RUNS}`,
      },
      {
        name: `import of a ${nodes}-node API-format file`, value: median(imports), unit: 'ms', better: 'lower',
        note: 'JSON parse, credential scrub, normalise, SHA-256 content hash, discovery; once per dropped file',
      },
    ]);
  },
};

export default bench;
