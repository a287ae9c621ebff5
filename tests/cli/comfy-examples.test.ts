/**
 * The examples with a ComfyUI workflow node run from the CLI on the ComfyUI double (with the FLUX,
 * SD 3.5 and ESRGAN files): FLUX from a chat prompt, SD 3.5 over eight prompts into a contact
 * sheet, an SDXL picture upscaled; the face-detail one is refused on a stock ComfyUI naming
 * ComfyUI-Impact-Pack before anything is queued; Ctrl-C during a run reaches ComfyUI's /interrupt.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { example, onlyRunDir, readManifest, runCli, spawnCli, tempDir } from './helpers';

let comfy: ComfyDouble;
beforeAll(async () => {
  comfy = await startComfyDouble({
    checkpoints: ['sd_xl_base_1.0.safetensors', 'sd3.5_large_fp8_scaled.safetensors'],
    vaes: ['ae.safetensors'],
  });
});
afterAll(() => comfy.close());

const flags = () => ['--image-backend', 'comfyui', '--backend-url', comfy.url, '--checkpoint', 'sdxl=sd_xl_base_1.0.safetensors'];
/** The examples draw at their real sizes; these runs draw small, as a person trying one out might. */
const small = (node: string) => ['--set', `${node}.width=64`, '--set', `${node}.height=64`];
const pngs = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.png')).sort();

describe('the ComfyUI examples on ComfyUI', () => {
  it('FLUX.1 [dev] from a chat prompt: the chat text in the workflow, its picture written', async () => {
    const before = comfy.received.prompts.length;
    const run = await runCli(['run', example('comfy-flux-from-chat'), ...flags(), ...small('flux')]);
    expect(run.stderr).not.toMatch(/failed|problem/i);
    expect(run.code, run.stderr).toBe(0);
    expect(comfy.received.prompts.length).toBe(before + 1);
    const sent = comfy.received.prompts.at(-1)?.prompt as Record<string, { inputs: Record<string, unknown> }>;
    expect(sent['6']?.inputs.text).toMatch(/fox/i);
    expect(sent['25']?.inputs.noise_seed).toBe(42);
    expect(pngs(onlyRunDir(run.cwd))).toContain('flux-images-0.png');
  }, 120_000);

  it('SD 3.5 over eight prompts: one queued workflow per prompt, one contact sheet', async () => {
    const before = comfy.received.prompts.length;
    const run = await runCli(['run', example('comfy-sd35-contact-sheet'), ...flags(), ...small('sd35')]);
    expect(run.stderr).not.toMatch(/failed/);
    expect(run.code, run.stderr).toBe(0);
    const sent = comfy.received.prompts.slice(before).map((p) => (p.prompt as Record<string, { inputs: Record<string, unknown> }>)['16']?.inputs.text);
    expect(sent).toHaveLength(8);
    expect(new Set(sent).size).toBe(8);
    const dir = onlyRunDir(run.cwd);
    expect(readdirSync(dir).filter((f) => f.startsWith('sheet'))).toHaveLength(1);
    expect(readManifest(dir).nodes.sd35).toMatchObject({ status: 'done' });
  }, 180_000);

  it('an SDXL picture through the ESRGAN upscale: uploaded by content, doubled', async () => {
    const run = await runCli(['run', example('comfy-upscale'), ...flags()]);
    expect(run.stderr).not.toMatch(/failed/);
    expect(run.code, run.stderr).toBe(0);
    const dir = onlyRunDir(run.cwd);
    const up = readdirSync(dir).filter((f) => f.startsWith('up-'));
    expect(up).toHaveLength(1);
    expect((await sharp(join(dir, up[0]!)).metadata()).width).toBe(2048);
  }, 120_000);

  it('face detail: a stock ComfyUI lacks FaceDetailer, named with its pack; nothing is queued', async () => {
    const before = comfy.received.prompts.length;
    const run = await runCli(['run', example('comfy-face-detail'), ...flags()]);
    expect(run.code).not.toBe(0);
    expect(run.stderr, run.stderr).toContain("this ComfyUI has no 'FaceDetailer' node (node 6, Face Detailer); it usually comes from ComfyUI-Impact-Pack");
    // The SDXL portrait is drawn (its own prompt); the pipeline is not queued.
    expect(comfy.received.prompts.slice(before).every((p) => !JSON.stringify(p.prompt).includes('FaceDetailer'))).toBe(true);
  }, 120_000);

  it('Ctrl-C during the FLUX run reaches ComfyUI\'s /interrupt', async () => {
    const interrupts = comfy.received.interrupts.length;
    comfy.hold(2);
    const cli = spawnCli(['run', example('comfy-flux-from-chat'), ...flags(), ...small('flux'), '--set', 'flux.seed=99'], tempDir());
    try {
      await comfy.until(() => comfy.waiting() !== undefined);
      cli.signal('SIGINT');
      const { code } = await cli.exited;
      expect(code).not.toBe(0);
      expect(comfy.received.interrupts.length).toBeGreaterThan(interrupts);
      expect(cli.stderr()).toMatch(/cancel/i);
    } finally {
      comfy.release();
    }
  }, 120_000);
});
