/**
 * The starter and every example run through the CLI on the fal and Replicate doubles, as a
 * person with a key would point it there (--image-backend fal|replicate, --backend-url, the key
 * in ATELIER_BACKEND_TOKEN): each succeeds, or stops before anything is sent with the reason on
 * the node. Manifests record the backend and the request as translated, never the key.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serializeWorkflow } from '../../workflow/serialize';
import { starterWorkflow } from '../../src/store/starter';
import { startFalDouble, type FalDouble } from '../helpers/doubles/fal';
import { startReplicateDouble, type ReplicateDouble } from '../helpers/doubles/replicate';
import { COMFY_EXAMPLES } from './comfy-examples';
import { EXAMPLES, example, onlyRunDir, readManifest, runCli, tempDir } from './helpers';

/**
 * A ComfyUI workflow node on any other backend: said before the run, naming where to choose
 * ComfyUI; at run time that node fails with it (the exit code says so) while the others run.
 */
const needsComfy = Object.fromEntries(COMFY_EXAMPLES.map((name) => [name,
  /atelier: warning: node '[^']+': this node runs a ComfyUI workflow, which needs a ComfyUI backend[\s\S]*failed +\S+ +after \d+ ms: this node runs a ComfyUI workflow/]));
const NAMES = ['starter', ...readdirSync(EXAMPLES).filter((f) => f.endsWith('.json') && f !== 'index.json').map((f) => f.replace(/\.json$/, '')).sort()];

let fal: FalDouble;
let replicate: ReplicateDouble;
let starter: string;
beforeAll(async () => {
  // No queue wait and no steps: each request answers at its first look, so the runs take no polling time.
  fal = await startFalDouble({ queuePolls: 0, progressPolls: 0 });
  replicate = await startReplicateDouble({ coldPolls: 0, steps: 0 });
  starter = join(tempDir(), 'starter.json');
  writeFileSync(starter, serializeWorkflow(starterWorkflow()));
});
afterAll(async () => { await Promise.all([fal.close(), replicate.close()]); });

const file = (name: string) => (name === 'starter' ? starter : example(name));

const BACKENDS = [
  {
    kind: 'fal',
    flags: () => ['--image-backend', 'fal', '--backend-url', fal.url],
    token: () => fal.apiKey,
    sent: () => fal.jobs.length,
    refuses: { 'subject-transfer': /node 'merge'.*fal cannot take this request: no fal model here carries a subject/ } as Record<string, RegExp>,
    failsAtRun: needsComfy as Record<string, RegExp>,
  },
  {
    kind: 'replicate',
    flags: () => ['--image-backend', 'replicate', '--backend-url', replicate.url],
    token: () => replicate.token,
    sent: () => replicate.predictions.length,
    refuses: { 'subject-transfer': /node 'merge'.*Replicate cannot take this request: no Replicate model here carries a subject/ } as Record<string, RegExp>,
    failsAtRun: needsComfy as Record<string, RegExp>,
  },
];

describe.each(BACKENDS)('the starter and the examples on the $kind double', (backend) => {
  it.each(NAMES)('%s', async (name) => {
    const before = backend.sent();
    const result = await runCli(['run', file(name), ...backend.flags()], { env: { ATELIER_BACKEND_TOKEN: backend.token() } });
    const failure = backend.failsAtRun[name];
    if (failure !== undefined) {
      expect(result.stderr).toMatch(failure);
      expect(result.code).toBe(1);
      return;
    }
    const refusal = backend.refuses[name];
    if (refusal !== undefined) {
      expect(result.stderr).toMatch(refusal);
      expect(result.code).toBe(1);
      expect(backend.sent() - before, 'nothing is sent when the backend cannot take a node').toBe(0);
      return;
    }
    expect(result.stderr).not.toMatch(/error|failed/i);
    expect(result.code).toBe(0);
    expect(backend.sent() - before).toBeGreaterThan(0);
    const manifest = readManifest(onlyRunDir(result.cwd));
    const calls = Object.values(manifest.nodes).flatMap((n) => n.requests ?? []).filter((c) => c.api === 'image');
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.backend?.kind).toBe(backend.kind);
    expect(readFileSync(join(onlyRunDir(result.cwd), 'manifest.json'), 'utf8')).not.toContain(backend.token());
  });
});

describe('a model chosen per run', () => {
  it('FLUX.1 [dev] on fal: the manifest keeps the translation (no negative prompt, guidance)', async () => {
    const result = await runCli(['run', starter, '--image-backend', 'fal', '--backend-url', fal.url, '--image-model', 'fal-ai/flux/dev'], { env: { ATELIER_BACKEND_TOKEN: fal.apiKey } });
    expect(result.code).toBe(0);
    expect(fal.jobs.at(-1)!.endpoint).toMatch(/^fal-ai\/flux\/dev/);
    const text = readFileSync(join(onlyRunDir(result.cwd), 'manifest.json'), 'utf8');
    expect(text).toContain('fal-ai/flux/dev');
  });

  it('FLUX.1 [schnell] cannot do image to image: refused before sending, naming the node and the field', async () => {
    const before = fal.jobs.length;
    const result = await runCli(['run', example('restyle-chain'), '--image-backend', 'fal', '--backend-url', fal.url, '--image-model', 'fal-ai/flux/schnell'], { env: { ATELIER_BACKEND_TOKEN: fal.apiKey } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/node '[^']+': .*FLUX\.1 \[schnell\] on fal cannot do image to image/);
    expect(fal.jobs.length).toBe(before);
  });
});

describe('money on the Replicate double', () => {
  it('the closing line and the manifest add up the GPU seconds Replicate reported for its time-billed models, never a guessed amount', async () => {
    const result = await runCli(['run', starter, '--image-backend', 'replicate', '--backend-url', replicate.url], { env: { ATELIER_BACKEND_TOKEN: replicate.token } });
    expect(result.code).toBe(0);
    // Two predictions of stability-ai/sdxl, each reporting metrics.predict_time 2.5.
    expect(result.stderr).toMatch(/API calls? \(5\.0 s of GPU time reported, billed by the second at a rate the API does not report\);/);
    expect(readManifest(onlyRunDir(result.cwd)).reported).toEqual({ usd: 0, imageCallsWithCost: 0, billedSeconds: 5, text: '5.0 s of GPU time reported, billed by the second at a rate the API does not report' });
  });
});
