/**
 * The cost of carrying a workflow inside an image, at the size the service returns (a JPEG of
 * about 3 MB) with a 200 KB workflow: embedding and extracting it (JPEG and PNG), building a
 * manifest whose request holds a 3 MB init image (pure-JS SHA-256), and the credential scan of
 * the workflow before export. Reported without targets.
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { buildImageManifest, embedWorkflow, extractWorkflow } from '../workflow/embed';
import { scanWorkflowForExport } from '../workflow/export-scan';
import type { Workflow } from '../workflow/schema';
import { median, type BenchResult, type Benchmark } from './harness';

const RUNS = 15;

/** Noise from a fixed seed: compresses like a photograph, so the JPEG is photo-sized. */
function noise(width: number, height: number): Buffer {
  const out = Buffer.alloc(width * height * 3);
  let s = 12345;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    out[i] = (s >>> 16) & 0xff;
  }
  return out;
}

/** About 200 KB of workflow: 120 nodes with realistic prompts and params. */
function workflowOf(bytes: number): Workflow {
  const nodes: Workflow['nodes'] = [];
  for (let i = 0; nodes.length === 0 || JSON.stringify(nodes).length < bytes; i++) {
    nodes.push({
      id: `n${i}`, type: 'text-to-image', title: `Shot ${i}`, position: { x: i * 40, y: i * 20 },
      params: {
        prompt: `a harbour at dusk, (golden light:1.2), fishing boats, gulls, wet cobblestones, shot ${i}, `.repeat(12),
        negative_prompt: 'blurry, extra fingers, watermark', seed: 1000 + i, steps: 30, cfg_scale: 7, engine: 'sdxl',
        loras: { 'svc:film-grain': 0.6 }, style_preset: 'cinematic',
      },
    });
  }
  return {
    format: 'atelier.workflow', version: 1,
    metadata: { title: 'Bench', description: '', created: '2026-01-01T00:00:00Z', modified: '2026-01-01T00:00:00Z' },
    nodes, edges: [],
  };
}

function time(fn: () => unknown): number {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const bench: Benchmark = {
  name: 'embed',
  async run(): Promise<BenchResult[]> {
    const pixels = noise(1280, 1280);
    const raw = { raw: { width: 1280, height: 1280, channels: 3 as const } };
    const jpeg = new Uint8Array(await sharp(pixels, raw).jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer());
    const png = new Uint8Array(await sharp(pixels, raw).png({ compressionLevel: 1 }).toBuffer());
    const workflow = workflowOf(200 * 1024);
    const text = JSON.stringify(workflow, null, 2);
    const initB64 = Buffer.from(jpeg).toString('base64');
    const manifest = buildImageManifest({
      atelierVersion: '0.1.0', node: { id: 'n0', type: 'image-to-image' },
      calls: [{ api: 'image', operation: 'generate', engine: 'sdxl', request: { prompt: 'p', init_image: initB64, seed: 1 } }],
      image: { b64: initB64, mime: 'image/jpeg', seed: 1 },
    });
    const size = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
    const note = `${size(jpeg.length)} JPEG, ${Math.round(text.length / 1024)} KB workflow`;

    const embeddedJpeg = embedWorkflow(jpeg, 'image/jpeg', { workflow: text, manifest });
    const embeddedPng = embedWorkflow(png, 'image/png', { workflow: text, manifest });
    if (extractWorkflow(embeddedJpeg)?.workflow !== text || extractWorkflow(embeddedPng)?.workflow !== text) {
      throw new Error('the embedded workflow did not come back intact');
    }
    const initCalls = [{ api: 'image' as const, operation: 'generate' as const, engine: 'sdxl', request: { prompt: 'p', init_image: initB64 } }];
    return [
      { name: 'embed in JPEG', value: time(() => embedWorkflow(jpeg, 'image/jpeg', { workflow: text, manifest })), unit: 'ms', better: 'lower', note },
      { name: 'extract from JPEG', value: time(() => extractWorkflow(embeddedJpeg)), unit: 'ms', better: 'lower', note },
      { name: 're-embed in JPEG (replacing)', value: time(() => embedWorkflow(embeddedJpeg, 'image/jpeg', { workflow: text, manifest })), unit: 'ms', better: 'lower', note },
      { name: 'embed in PNG', value: time(() => embedWorkflow(png, 'image/png', { workflow: text, manifest })), unit: 'ms', better: 'lower', note: `${size(png.length)} PNG` },
      { name: 'extract from PNG (CRC checked)', value: time(() => extractWorkflow(embeddedPng)), unit: 'ms', better: 'lower', note: `${size(png.length)} PNG` },
      {
        name: 'build manifest, 3 MB init image',
        value: time(() => buildImageManifest({ atelierVersion: '0.1.0', node: { id: 'n', type: 'image-to-image' }, calls: initCalls, image: { b64: initB64, mime: 'image/jpeg' } })),
        unit: 'ms', better: 'lower', note: 'base64 decode + synchronous SHA-256 (@noble/hashes)',
      },
      { name: 'export credential scan, 200 KB workflow', value: time(() => scanWorkflowForExport(workflow)), unit: 'ms', better: 'lower', note: `${workflow.nodes.length} nodes` },
    ];
  },
};

export default bench;
