/**
 * Every example runs through the CLI on each image backend's double, as a person would point it
 * there (--image-backend, --backend-url, the credential in ATELIER_BACKEND_TOKEN): it succeeds,
 * or, where the backend cannot do what the example asks, stops before anything is sent with the
 * reason on the node. The manifests record the backend and the request as translated, never the
 * credential, and the workflow an image carries does not depend on the backend that drew it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractWorkflow } from '../../workflow/embed/index';
import { startA1111Double, type A1111Double } from '../helpers/doubles/a1111';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { startGeminiDouble, type GeminiDouble } from '../helpers/doubles/gemini';
import { startOpenAIImagesDouble, type OpenAIImagesDouble } from '../helpers/doubles/openai-images';
import { COMFY_EXAMPLES } from './comfy-examples';
import { EXAMPLES, example, onlyRunDir, readManifest, runCli } from './helpers';

const EXAMPLE_NAMES = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json') && f !== 'index.json').map((f) => f.replace(/\.json$/, '')).sort();

/**
 * A ComfyUI workflow node on any other backend: said before the run, naming where to choose
 * ComfyUI; at run time that node fails with it (the exit code says so) while the others run.
 */
const needsComfy = Object.fromEntries(COMFY_EXAMPLES.map((name) => [name,
  /atelier: warning: node '[^']+': this node runs a ComfyUI workflow, which needs a ComfyUI backend[\s\S]*failed +\S+ +after \d+ ms: this node runs a ComfyUI workflow/]));

interface BackendUnderTest {
  kind: string;
  flags(): string[];
  env(): Record<string, string>;
  /** Image requests the double has received so far. */
  imageRequests(): number;
  /** Examples the backend cannot run, with the reason it gives. */
  refuses: Record<string, RegExp>;
  /** Examples that start but fail at a node, with the reason it gives. */
  failsAtRun?: Record<string, RegExp>;
}

let openai: OpenAIImagesDouble;
let a1111: A1111Double;
let comfy: ComfyDouble;
let gemini: GeminiDouble;
beforeAll(async () => {
  gemini = await startGeminiDouble();
  // With the files the ComfyUI examples' workflows load (FLUX's VAE, SD 3.5).
  comfy = await startComfyDouble({ checkpoints: ['sd_xl_base_1.0.safetensors', 'sd_xl_refiner_1.0.safetensors', 'v1-5-pruned-emaonly.safetensors', 'sd3.5_large_fp8_scaled.safetensors'], vaes: ['sdxl_vae.safetensors', 'ae.safetensors'] });
  openai = await startOpenAIImagesDouble({ apiKey: 'sk-test-backend-key-0123456789' });
  a1111 = await startA1111Double({ apiAuth: 'painter:s3cret-pass', controlnetModels: ['diffusers_xl_canny_full [2b69fca4]'] });
});
afterAll(async () => {
  await Promise.all([openai.close(), a1111.close(), comfy.close(), gemini.close()]);
});

const BACKENDS: BackendUnderTest[] = [
  {
    kind: 'comfyui',
    flags: () => [
      '--image-backend', 'comfyui', '--backend-url', comfy.url,
      '--checkpoint', 'sdxl=sd_xl_base_1.0.safetensors', '--checkpoint', 'sd=v1-5-pruned-emaonly.safetensors',
      '--checkpoint', 'controlnet-sdxl=sd_xl_base_1.0.safetensors', '--asset', 'svc:canny_sdxl=diffusers_xl_canny_full.safetensors',
    ],
    env: () => ({}),
    imageRequests: () => comfy.received.prompts.length,
    refuses: { 'subject-transfer': /ComfyUI cannot take this request: .*subject/i },
    // The portrait is drawn first; the face-detail workflow is checked against the server when its turn comes.
    failsAtRun: { 'comfy-face-detail': /this ComfyUI has no 'FaceDetailer' node .*ComfyUI-Impact-Pack/ },
  },
  {
    kind: 'openai',
    flags: () => ['--image-backend', 'openai', '--backend-url', openai.url],
    env: () => ({ ATELIER_BACKEND_TOKEN: openai.apiKey }),
    imageRequests: () => openai.received.filter((r) => r.path.startsWith('/v1/images/')).length,
    refuses: { 'controlnet-from-image': /OpenAI Images cannot take this request: .*ControlNet/ },
    failsAtRun: needsComfy,
  },
  {
    kind: 'google',
    flags: () => ['--image-backend', 'google', '--backend-url', gemini.url],
    env: () => ({ ATELIER_BACKEND_TOKEN: gemini.apiKey }),
    imageRequests: () => gemini.received.filter((r) => r.path.endsWith(':generateContent')).length,
    refuses: { 'controlnet-from-image': /Google Gemini API cannot take this request: .*ControlNet/ },
    failsAtRun: needsComfy,
  },
  {
    kind: 'a1111',
    flags: () => [
      '--image-backend', 'a1111', '--backend-url', a1111.url,
      '--checkpoint', 'sdxl=sd_xl_base_1.0.safetensors', '--checkpoint', 'sd=v1-5-pruned-emaonly.safetensors',
      '--checkpoint', 'controlnet-sdxl=sd_xl_base_1.0.safetensors', '--asset', 'svc:canny_sdxl=diffusers_xl_canny_full',
    ],
    env: () => ({ ATELIER_BACKEND_TOKEN: 'painter:s3cret-pass' }),
    imageRequests: () => a1111.generations.length,
    refuses: { 'subject-transfer': /AUTOMATIC1111 \/ Forge cannot take this request: .*subject/i },
    failsAtRun: needsComfy,
  },
];

/** The embedded workflow of every image the run wrote, by file name (without the extension: backends answer in their own formats). */
function embeddedWorkflows(dir: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const file of readdirSync(dir).filter((f) => /\.(png|jpe?g)$/.test(f)).sort()) {
    out[file.replace(/\.\w+$/, '')] = extractWorkflow(readFileSync(join(dir, file)))?.workflow;
  }
  return out;
}

describe.each(BACKENDS)('the examples on the $kind backend', (backend) => {
  it.each(EXAMPLE_NAMES)('%s', async (name) => {
    const before = backend.imageRequests();
    const result = await runCli(['run', example(name), ...backend.flags()], { env: backend.env() });
    const failure = backend.failsAtRun?.[name];
    if (failure !== undefined) {
      expect(result.stderr).toMatch(failure);
      expect(result.code).toBe(1);
      return;
    }
    const refusal = backend.refuses[name];
    if (refusal !== undefined) {
      expect(result.stderr).toMatch(refusal);
      expect(result.code).toBe(1);
      expect(backend.imageRequests() - before, 'nothing is sent when the backend cannot take a node').toBe(0);
      return;
    }
    expect(result.stderr).not.toMatch(/error|failed/i);
    expect(result.code).toBe(0);
    expect(backend.imageRequests() - before).toBeGreaterThan(0);
    const manifest = readManifest(onlyRunDir(result.cwd));
    const imageCalls = Object.values(manifest.nodes).flatMap((n) => n.requests ?? []).filter((c) => c.api === 'image');
    expect(imageCalls.length).toBeGreaterThan(0);
    for (const call of imageCalls) expect(call.backend?.kind).toBe(backend.kind);
    const text = readFileSync(join(onlyRunDir(result.cwd), 'manifest.json'), 'utf8');
    const credential = backend.env().ATELIER_BACKEND_TOKEN;
    if (credential !== undefined) expect(text).not.toContain(credential);
  });

  it('the workflow an image carries is the same, byte for byte, as on the local engines', async () => {
    const local = await runCli(['run', example('fan-out')]);
    const routed = await runCli(['run', example('fan-out'), ...backend.flags()], { env: backend.env() });
    expect(local.code).toBe(0);
    expect(routed.code).toBe(0);
    const a = embeddedWorkflows(onlyRunDir(local.cwd));
    const b = embeddedWorkflows(onlyRunDir(routed.cwd));
    expect(Object.keys(b)).toEqual(Object.keys(a));
    for (const file of Object.keys(a)) {
      expect(a[file]).toBeDefined();
      expect(b[file]).toBe(a[file]);
    }
  });
});

describe('money on the Gemini backend', () => {
  it('the run\'s closing line adds up what the API reported, at Google\'s published prices', async () => {
    const result = await runCli(['run', example('variations'), '--image-backend', 'google', '--backend-url', gemini.url], { env: { ATELIER_BACKEND_TOKEN: gemini.apiKey } });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/API calls? \(\$0\.\d{4} reported by the backend\);/);
  });
});
