/**
 * Every example workflow runs through the CLI against the in-process local engines, and what it
 * writes is checked: the files, the images' real sizes, counts for num_images, texts on topic,
 * and the manifest. The chat example runs as the real command; the others in-process.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { loadWorkflow } from '../../workflow/load';
import { registry } from '../../nodes/index';
import { EXAMPLES, example, onlyRunDir, readManifest, runCli, spawnCli, tempDir } from './helpers';

async function sizeOf(path: string): Promise<{ width?: number; height?: number; format?: string }> {
  const { width, height, format } = await sharp(path).metadata();
  return { width, height, format };
}

describe('public/examples', () => {
  it('index.json lists every example file, each loading cleanly with its title and description', () => {
    const index = JSON.parse(readFileSync(join(EXAMPLES, 'index.json'), 'utf8')) as { file: string; title: string; description: string }[];
    const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.json') && f !== 'index.json').sort();
    expect(index.map((e) => e.file).sort()).toEqual(files);
    expect(files).toHaveLength(14);
    for (const entry of index) {
      const { workflow, warnings } = loadWorkflow(readFileSync(join(EXAMPLES, entry.file), 'utf8'), { knownTypes: new Set(registry.list().map((d) => d.type)) });
      expect(warnings).toEqual([]);
      expect(workflow.metadata.title).toBe(entry.title);
      expect(workflow.metadata.description).toBe(entry.description);
      expect(entry.description.length).toBeGreaterThan(20);
      // Laid out left to right: every edge goes rightwards.
      const x = new Map(workflow.nodes.map((n) => [n.id, n.position.x]));
      for (const e of workflow.edges) expect(x.get(e.target.node)!).toBeGreaterThan(x.get(e.source.node)!);
      // Embedded images stay small.
      for (const n of workflow.nodes.filter((n) => n.type === 'image-loader')) {
        expect((n.params.image as { b64: string }).b64.length).toBeLessThan(12_000);
      }
    }
  });
});

describe('running the examples', () => {
  it('chat-to-image, as the real command: a prompt on topic, two SDXL images at 1216x832 with their seeds', async () => {
    const cwd = tempDir();
    const cli = spawnCli(['run', example('chat-to-image')], cwd);
    const { code } = await cli.exited;
    expect(cli.stderr()).toMatch(/done in .*4 nodes/);
    expect(code).toBe(0);
    const dir = onlyRunDir(cwd);
    expect(dir).toMatch(/atelier-out\/\d{8}-\d{6}-\d{3}$/);
    const prompt = readFileSync(join(dir, 'writer-text.txt'), 'utf8');
    expect(prompt.toLowerCase()).toContain('lighthouse');
    expect(readFileSync(join(dir, 'subject-text.txt'), 'utf8')).toBe('a lighthouse on a rocky cliff at dusk');
    for (const file of ['draw-images-0.jpg', 'draw-images-1.jpg']) {
      expect(await sizeOf(join(dir, file))).toEqual({ width: 1216, height: 832, format: 'jpeg' });
    }
    const m = readManifest(dir);
    expect(m.status).toBe('succeeded');
    expect(m.workflow.title).toBe('Chat to image');
    expect(m.endpoints).toEqual({ image: 'local', text: 'local' });
    expect(m.nodes.draw).toMatchObject({ type: 'text-to-image', status: 'done', cached: false, seeds: [1234, 1235] });
    expect(m.nodes.draw!.outputs.images!.files).toEqual(['draw-images-0.jpg', 'draw-images-1.jpg']);
    expect(m.nodes.draw!.requests[0]).toMatchObject({ api: 'image', engine: 'sdxl', request: { prompt, width: 1216, height: 832, num_images: 2, seed: 1234 } });
    expect(m.nodes.writer!.requests[0]).toMatchObject({ api: 'chat', operation: 'stream', request: { model: 'atelier-local-chat', max_tokens: 120 } });
    // The preview shows the generator's images: the same files, not copies.
    expect(m.nodes.preview!.outputs.shown!.files).toEqual(['draw-images-0.jpg', 'draw-images-1.jpg']);
    expect(m.files.sort()).toEqual(readdirSync(dir).filter((f) => f !== 'manifest.json').sort());
    expect(new Date(m.finished!).getTime()).toBeGreaterThanOrEqual(new Date(m.started).getTime());
  });

  it('restyle-chain: three images in a chain, the mask sent as a digest of the embedded PNG', async () => {
    // Images as the service sent them, so a file's digest is the digest of what the next node sent.
    const { code, cwd, stderr } = await runCli(['run', example('restyle-chain'), '--no-embed']);
    expect(code, stderr).toBe(0);
    const dir = onlyRunDir(cwd);
    for (const file of ['draw-image.jpg', 'restyle-image.jpg', 'sky-image.jpg']) {
      expect(await sizeOf(join(dir, file))).toEqual({ width: 1152, height: 896, format: 'jpeg' });
    }
    // The loaded mask is an output too, written as the PNG it is.
    expect((await sizeOf(join(dir, 'mask-image.png'))).format).toBe('png');
    const m = readManifest(dir);
    expect(m.nodes.restyle!.requests[0]!.request).toMatchObject({ strength: 0.55, style_preset: 'Watercolor', init_image: { image: 'image/jpeg' } });
    const sky = m.nodes.sky!.requests[0]!.request as { init_image: { sha256: string; bytes: number }; mask_image: { image: string; bytes: number; sha256: string } };
    const maskBytes = readFileSync(join(dir, 'mask-image.png'));
    expect(sky.mask_image).toEqual({ image: 'image/png', bytes: maskBytes.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown });
    // The init image of the inpaint is exactly the file the restyle node wrote.
    const { createHash } = await import('node:crypto');
    expect(sky.init_image.sha256).toBe(createHash('sha256').update(readFileSync(join(dir, 'restyle-image.jpg'))).digest('hex'));
    expect(JSON.stringify(m)).not.toMatch(/[A-Za-z0-9+/]{400}/);
  });

  it('controlnet-from-image: 1024x1024 from svc:canny_sdxl on the controlnet-sdxl engine', async () => {
    const { code, cwd, stderr } = await runCli(['run', example('controlnet-from-image')]);
    expect(code, stderr).toBe(0);
    const dir = onlyRunDir(cwd);
    expect(await sizeOf(join(dir, 'guided-image.jpg'))).toEqual({ width: 1024, height: 1024, format: 'jpeg' });
    const call = readManifest(dir).nodes.guided!.requests[0]!;
    expect(call).toMatchObject({ engine: 'controlnet-sdxl', request: { controlnet: 'svc:canny_sdxl', controlnet_image: { image: 'image/png' } } });
  });

  it('subject-transfer: both samples go under the trigger word', async () => {
    const { code, cwd, stderr } = await runCli(['run', example('subject-transfer')]);
    expect(code, stderr).toBe(0);
    const dir = onlyRunDir(cwd);
    expect(await sizeOf(join(dir, 'merge-image.jpg'))).toEqual({ width: 1024, height: 1024, format: 'jpeg' });
    const request = readManifest(dir).nodes.merge!.requests[0]!.request as { transfer_images: Record<string, { image: string }[]> };
    expect(Object.keys(request.transfer_images)).toEqual(['sks']);
    expect(request.transfer_images.sks!.map((d) => d.image)).toEqual(['image/jpeg', 'image/jpeg']);
  });

  it('fan-out: SDXL and SD 1.5 from one prompt, each at its own resolution', async () => {
    const { code, cwd, stderr } = await runCli(['run', example('fan-out')]);
    expect(code, stderr).toBe(0);
    const dir = onlyRunDir(cwd);
    expect(await sizeOf(join(dir, 'sdxl-image.jpg'))).toMatchObject({ width: 1024, height: 1024 });
    expect(await sizeOf(join(dir, 'sd15-image.jpg'))).toMatchObject({ width: 512, height: 768 });
    const m = readManifest(dir);
    expect(m.nodes.sdxl!.requests[0]).toMatchObject({ engine: 'sdxl', request: { prompt: 'a red fox in the snow, morning light, detailed fur' } });
    expect(m.nodes.sd15!.requests[0]).toMatchObject({ engine: 'sd' });
    expect((m.nodes.sd15!.requests[0]!.request as Record<string, unknown>).use_refiner).toBeUndefined();
    expect(Object.values(m.nodes).every((n) => n.status === 'done')).toBe(true);
    expect(existsSync(join(dir, 'prompt-text.txt'))).toBe(true);
  });

  it('variations: the chat writes eight prompts, one per line, and each is drawn, in parallel', async () => {
    const { code, cwd, stderr, stdout } = await runCli(['run', example('variations'), '--json']);
    expect(code, stderr).toBe(0);
    const dir = onlyRunDir(cwd);
    const m = readManifest(dir);
    const prompts = (m.nodes.draw!.requests as { request: { prompt: string } }[]).map((r) => r.request.prompt);
    expect(prompts).toHaveLength(8);
    expect(new Set(prompts).size).toBe(8);
    for (const prompt of prompts) expect(prompt.toLowerCase()).toContain('cabin');
    expect(m.nodes.draw).toMatchObject({ status: 'done', items: { count: 8 } });
    expect(m.nodes.draw!.items!.ended.map((e) => e.item).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (let i = 0; i < 8; i++) expect(await sizeOf(join(dir, `draw-image-${i}.jpg`))).toEqual({ width: 512, height: 512, format: 'jpeg' });
    // The preview takes the whole list: it ran once and shows the eight files the items wrote.
    expect(m.nodes.preview!.outputs.shown!.files).toEqual(Array.from({ length: 8 }, (_, i) => `draw-image-${i}.jpg`));
    // --json names the item of every event about one.
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; nodeId?: string; item?: number; outputs?: Record<string, { value: { file?: string } }> });
    const done = events.filter((e) => e.type === 'node-item-done' && e.nodeId === 'draw');
    expect(done.map((e) => e.item).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(done.find((e) => e.item === 3)!.outputs!.image!.value.file).toBe('draw-image-3.jpg');
    expect(events.filter((e) => e.type === 'node-request' && e.nodeId === 'draw').every((e) => typeof e.item === 'number')).toBe(true);
  });

  it('shot-list: a numbered list split into six shots, drawn and tiled into one captioned PNG', async () => {
    const { code, cwd, stderr } = await runCli(['run', example('shot-list')]);
    expect(code, stderr).toBe(0);
    const dir = onlyRunDir(cwd);
    const shots = Array.from({ length: 6 }, (_, i) => readFileSync(join(dir, `split-items-${i}.txt`), 'utf8'));
    expect(shots[0]).toBe('Wide shot: the lighthouse on its cliff, the sea below');
    expect(shots[3]).toBe('Aerial view: the coastline at dusk, the beam sweeping across the water');
    expect(stderr).toContain('fan-out   draw  × 6 (Prompt: 6)');
    // Six 768x512 pictures, three to a row: cells 256 wide and 171 tall, captions under them.
    const sheet = await sizeOf(join(dir, 'shot-list.png'));
    expect(sheet).toMatchObject({ width: 8 + 3 * (256 + 8), format: 'png' });
    expect(readManifest(dir).nodes.sheet).toMatchObject({ status: 'done', outputs: { image: { files: ['sheet-image.png'] } } });
  });

  it('subjects-by-styles: three subjects crossed with three styles make nine prompts and nine pictures', async () => {
    const { code, cwd, stderr } = await runCli(['run', example('subjects-by-styles')]);
    expect(code, stderr).toBe(0);
    const dir = onlyRunDir(cwd);
    expect(stderr).toContain('fan-out   prompt  × 3 × 3 = 9');
    const prompts = Array.from({ length: 9 }, (_, i) => readFileSync(join(dir, `prompt-text-${i}.txt`), 'utf8'));
    expect(prompts.slice(0, 4)).toEqual(['a red fox, as a watercolour', 'a red fox, as a linocut print', 'a red fox, as a neon-lit photograph', 'a lighthouse, as a watercolour']);
    const m = readManifest(dir);
    expect((m.nodes.draw!.requests as { request: { prompt: string } }[]).map((r) => r.request.prompt).sort()).toEqual([...prompts].sort());
    expect(await sizeOf(join(dir, 'sheet-image.png'))).toMatchObject({ width: 8 + 3 * (224 + 8), format: 'png' });
  });
});
