/**
 * The CLI with an image backend and no chat API: chat nodes run on the in-process local text
 * engine, and stderr says so; and the backend's lists are asked before the run, so a file it lacks
 * stops the run on its node's field, with the likely file, before anything is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { closedPort } from '../helpers/closed-port';
import { example, runCli } from './helpers';

let comfy: ComfyDouble;
beforeAll(async () => {
  comfy = await startComfyDouble();
});
afterAll(async () => {
  await comfy.close();
});

const comfyFlags = (checkpoint: string, url = comfy.url) => ['--image-backend', 'comfyui', '--backend-url', url, '--checkpoint', `sdxl=${checkpoint}`, '--checkpoint', `sd=${checkpoint}`];

describe('an image backend and no --text-base-url', () => {
  it('runs the chat node on the local text engine, saying so on stderr, and draws on the backend', async () => {
    const before = comfy.received.prompts.length;
    const result = await runCli(['run', example('chat-to-image'), ...comfyFlags('sd_xl_base_1.0.safetensors')]);
    expect(result.stderr).toContain('note: chat goes to the local text engine started in this process, a stand-in (offline, not a language model): give --text-base-url');
    expect(result.code).toBe(0);
    expect(comfy.received.prompts.length).toBeGreaterThan(before);
  });

  it('says nothing of chat for a workflow with no chat node', async () => {
    const result = await runCli(['run', example('fan-out'), ...comfyFlags('sd_xl_base_1.0.safetensors')]);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('chat goes to the local text engine');
  });
});

describe("the backend's names, checked before sending", () => {
  it('a checkpoint ComfyUI does not list stops the run on the node, with the file it has, and nothing is sent', async () => {
    const before = comfy.received.prompts.length;
    const result = await runCli(['run', example('chat-to-image'), ...comfyFlags('sd_xl_base_1.0.ckpt')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/ComfyUI cannot take this request: it has no checkpoint 'sd_xl_base_1\.0\.ckpt' \(the checkpoint set for sdxl in the backend's settings\); did you mean 'sd_xl_base_1\.0\.safetensors'\?/);
    expect(comfy.received.prompts.length).toBe(before);
  });

  it('a backend that cannot be asked is not a problem of the workflow: the run says what the backend answers', async () => {
    const port = await closedPort();
    const result = await runCli(['run', example('fan-out'), ...comfyFlags('anything.safetensors', `http://127.0.0.1:${port}`)]);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/has no checkpoint|cannot run \(/);
    expect(result.stderr).toMatch(/ComfyUI is not running at/);
  });
});
