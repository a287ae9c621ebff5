/**
 * The backend flags: what they route where, and every mistake a usage error (exit 2) that names
 * the flag before anything is read or sent. Runs on each backend's double live in
 * tests/backends/.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveBackends } from '../../cli/backends';
import { example, runCli, tempDir } from './helpers';

const none = { checkpoints: [], assets: [] };

describe('backend flags', () => {
  it('--image-backend routes every engine to that backend, at its usual address unless --backend-url says', async () => {
    expect(await resolveBackends({ ...none, kind: 'comfyui' }, '/')).toEqual({
      sdxl: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188' },
      sd: { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188' },
      'controlnet-sdxl': { kind: 'comfyui', baseUrl: 'http://127.0.0.1:8188' },
    });
    const a1111 = await resolveBackends({ ...none, kind: 'a1111', url: 'http://10.0.0.5:7861', checkpoints: ['sd=v1-5.safetensors'], refiner: 'refiner.safetensors', assets: ['svc:canny_sdxl=xl_canny.safetensors'] }, '/');
    expect(a1111.sd).toEqual({ kind: 'a1111', baseUrl: 'http://10.0.0.5:7861', names: { refiner: 'refiner.safetensors', assets: { 'svc:canny_sdxl': 'xl_canny.safetensors' }, checkpoint: 'v1-5.safetensors' } });
    expect(a1111.sdxl?.names?.checkpoint).toBeUndefined();
    expect(await resolveBackends({ ...none, kind: 'service' }, '/')).toEqual({});
  });

  it('--backends reads a per-engine file, and the flags complete it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ sd: { kind: 'openai', baseUrl: 'http://127.0.0.1:9', names: { model: 'dall-e-2' } } }));
    expect(await resolveBackends({ ...none, file: 'b.json', assets: ['x=y'] }, dir)).toEqual({
      sd: { kind: 'openai', baseUrl: 'http://127.0.0.1:9', names: { model: 'dall-e-2', assets: { x: 'y' } } },
    });
  });

  it.each([
    [['--image-backend', 'midjourney'], /--image-backend must be one of service, comfyui, a1111, openai/],
    [['--backend-url', 'http://127.0.0.1:8188'], /--backend-url needs --image-backend/],
    [['--checkpoint', 'sdxl=x.safetensors'], /give --image-backend or --backends too/],
    [['--image-backend', 'comfyui', '--checkpoint', 'sdxl'], /--checkpoint takes KEY=VALUE/],
    [['--image-backend', 'comfyui', '--checkpoint', 'flux=x'], /'flux' is not an engine/],
    [['--image-backend', 'comfyui', '--backend-url', 'ftp://host'], /must be an http or https URL/],
    [['--image-backend', 'comfyui', '--backend-url', 'http://user:pw@127.0.0.1:8188'], /must not carry a user name or password/],
    [['--backends', 'missing.json'], /--backends: cannot read missing.json/],
    [['--image-backend', 'service', '--backend-url', 'http://127.0.0.1:1'], /--image-base-url/],
  ])('%j is a usage error that names the flag (exit 2)', async (flags, message) => {
    const { code, stderr } = await runCli(['run', example('fan-out'), ...flags]);
    expect(stderr).toMatch(message);
    expect(code).toBe(2);
  });

  it('a --backends file of the wrong shape says where', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ sdxl: { kind: 'comfyui' } }));
    const { code, stderr } = await runCli(['run', example('fan-out'), '--backends', 'b.json'], { cwd: dir });
    expect(stderr).toMatch(/--backends: b\.json: sdxl\.baseUrl: /);
    expect(code).toBe(2);
  });

  it('--help lists the backend flags and where the credential comes from', async () => {
    const { stdout } = await runCli(['--help']);
    for (const flag of ['--image-backend', '--backend-url', '--backends', '--checkpoint', '--refiner', '--image-model', '--asset', 'ATELIER_BACKEND_TOKEN']) {
      expect(stdout).toContain(flag);
    }
  });
});
