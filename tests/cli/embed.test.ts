/**
 * The workflow and a manifest inside every image the CLI writes: the workflow as it ran (after
 * --set), a manifest per image with that image's seed and real digests of the request's images,
 * the pixels untouched, no token or endpoint in the bytes, credentials in the workflow cleaned
 * with a warning each, `--no-embed` for the service's bytes, and an extracted workflow that
 * re-opens and re-runs to the same bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../nodes/index';
import { catalogueLoadOptions } from '../../nodes/load-options';
import { type ExtractedContent, type ImageManifest, extractWorkflow, readImageManifest } from '../../workflow/embed';
import { loadWorkflow } from '../../workflow/load';
import { serializeWorkflow } from '../../workflow/serialize';
import { startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server';
import { answerWithLocalEngine, example, onlyRunDir, readManifest, runCli, tempDir } from './helpers';

const LOAD = catalogueLoadOptions(registry);
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const images = (dir: string) => readdirSync(dir).filter((f) => /\.(jpe?g|png)$/.test(f)).sort();

function embedded(path: string): { content: ExtractedContent; manifest: ImageManifest } {
  const content = extractWorkflow(readFileSync(path));
  expect(content?.workflow, `${path} carries a workflow`).toBeDefined();
  const manifest = readImageManifest(content!.manifest);
  expect(manifest, `${path} carries a manifest`).toBeDefined();
  return { content: content!, manifest: manifest! };
}

/** Raw RGB(A) pixels, as sharp decodes them. */
async function pixels(path: string): Promise<Buffer> {
  return sharp(path).raw().toBuffer();
}

describe('images written by the CLI', () => {
  it('carry the workflow as it ran (after --set) and a manifest per image with its own seed', async () => {
    const sets = ['--set', 'sdxl.num_images=2', '--set', 'sdxl.seed=77'];
    const { code, cwd, stderr } = await runCli(['run', example('fan-out'), ...sets]);
    expect(code, stderr).toBe(0);
    const dir = onlyRunDir(cwd);
    expect(images(dir)).toEqual(['sd15-image.jpg', 'sdxl-images-0.jpg', 'sdxl-images-1.jpg']);

    const ran = loadWorkflow(readFileSync(example('fan-out'), 'utf8'), LOAD).workflow;
    const sdxlNode = ran.nodes.find((n) => n.id === 'sdxl')!;
    sdxlNode.params = { ...sdxlNode.params, num_images: 2, seed: 77 };
    const expected = serializeWorkflow(ran);

    const run = readManifest(dir);
    expect(run.embedded).toBe(true);
    expect(run.nodes.sdxl!.seeds).toEqual([77, 78]);
    for (const [i, file] of ['sdxl-images-0.jpg', 'sdxl-images-1.jpg'].entries()) {
      expect((await sharp(join(dir, file)).metadata()).format).toBe('jpeg');
      const { content, manifest } = embedded(join(dir, file));
      expect(content.workflow).toBe(expected);
      expect(manifest).toMatchObject({
        atelier: { version: VERSION },
        node: { id: 'sdxl', type: 'text-to-image', typeVersion: registry.get('text-to-image')!.version, title: 'SDXL' },
        engine: 'sdxl',
        seed: run.nodes.sdxl!.seeds[i],
        image: { mime: 'image/jpeg', width: 1024, height: 1024 },
      });
      expect(manifest.requests).toEqual([{ api: 'image', operation: 'generate', engine: 'sdxl', request: run.nodes.sdxl!.requests[0]!.request }]);
      expect(manifest.requests[0]!.request).toMatchObject({ prompt: 'a red fox in the snow, morning light, detailed fur', num_images: 2, seed: 77 });
    }
    const sd15 = embedded(join(dir, 'sd15-image.jpg')).manifest;
    expect(sd15).toMatchObject({ node: { id: 'sd15', title: 'SD 1.5' }, engine: 'sd', seed: 11, image: { width: 512, height: 768 } });
  });

  it('a PNG carries them too, and the digests of request images are the real sha256 of what was sent', async () => {
    const embeddedRun = await runCli(['run', example('restyle-chain'), '--out', 'with']);
    expect(embeddedRun.code, embeddedRun.stderr).toBe(0);
    const plain = await runCli(['run', example('restyle-chain'), '--out', 'plain', '--no-embed'], { cwd: embeddedRun.cwd });
    expect(plain.code, plain.stderr).toBe(0);
    const withDir = join(embeddedRun.cwd, 'with');
    const plainDir = join(embeddedRun.cwd, 'plain');

    const mask = embedded(join(withDir, 'mask-image.png')).manifest;
    expect(mask).toMatchObject({ node: { id: 'mask', type: 'image-loader' }, requests: [], image: { mime: 'image/png' } });
    expect(mask.engine).toBeUndefined();
    const sky = embedded(join(withDir, 'sky-image.jpg')).manifest;
    const request = sky.requests[0]!.request as Record<string, { image: string; bytes: number; sha256: string }>;
    // The local engines are deterministic, so the plain run's files are the bytes the embedded run sent on.
    const restyleSent = readFileSync(join(plainDir, 'restyle-image.jpg'));
    const maskSent = readFileSync(join(plainDir, 'mask-image.png'));
    expect(request.init_image).toEqual({ image: 'image/jpeg', bytes: restyleSent.length, sha256: sha256(restyleSent) });
    expect(request.mask_image).toEqual({ image: 'image/png', bytes: maskSent.length, sha256: sha256(maskSent) });
    expect(sky).toMatchObject({ node: { id: 'sky', type: 'inpaint' }, engine: 'sdxl', seed: 9 });
  });

  it('leave the pixels as the service made them; --no-embed writes exactly what it sent', async () => {
    const { cwd, code, stderr } = await runCli(['run', example('fan-out'), '--out', 'with']);
    expect(code, stderr).toBe(0);
    const plain = await runCli(['run', example('fan-out'), '--out', 'plain', '--no-embed', '--json'], { cwd });
    expect(plain.code, plain.stderr).toBe(0);
    expect(readManifest(join(cwd, 'plain')).embedded).toBe(false);

    const sentBytes = new Map<string, number>();
    for (const line of plain.stdout.trimEnd().split('\n')) {
      const event = JSON.parse(line) as { type: string; outputs?: Record<string, { kind: string; value: { bytes: number; file: string } }> };
      for (const out of Object.values(event.outputs ?? {})) if (out.kind === 'image') sentBytes.set(out.value.file, out.value.bytes);
    }
    const files = images(join(cwd, 'plain'));
    expect(files).toEqual(images(join(cwd, 'with')));
    expect(files).toEqual(['sd15-image.jpg', 'sdxl-image.jpg']);
    for (const file of files) {
      const withPath = join(cwd, 'with', file);
      const plainPath = join(cwd, 'plain', file);
      const plainBytes = readFileSync(plainPath);
      expect(extractWorkflow(plainBytes)).toBeUndefined();
      expect(plainBytes.length).toBe(sentBytes.get(file));
      expect(readFileSync(withPath).length).toBeGreaterThan(plainBytes.length);
      expect(embedded(withPath).manifest.image.bytes).toBe(plainBytes.length);
      expect((await pixels(withPath)).equals(await pixels(plainPath)), file).toBe(true);
    }
  });

  it('re-open: the extracted workflow loads cleanly and runs again to the same image bytes', async () => {
    const clock = () => new Date('2026-03-01T12:00:00.000Z');
    const first = await runCli(['run', example('fan-out'), '--set', 'sd15.seed=4242', '--set', 'SD 1.5.width=640', '--set', 'SD 1.5.height=512'], { now: clock });
    expect(first.code, first.stderr).toBe(0);
    const firstDir = onlyRunDir(first.cwd);
    const { workflow: text } = embedded(join(firstDir, 'sd15-image.jpg')).content;
    const loaded = loadWorkflow(text!, LOAD);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.workflow.nodes.find((n) => n.id === 'sd15')!.params).toMatchObject({ seed: 4242, width: 640, height: 512 });

    const cwd = tempDir();
    writeFileSync(join(cwd, 'from-image.json'), text!);
    const again = await runCli(['run', 'from-image.json'], { cwd, now: clock });
    expect(again.code, again.stderr).toBe(0);
    const againDir = onlyRunDir(cwd);
    expect(images(againDir)).toEqual(images(firstDir));
    for (const file of images(firstDir)) {
      expect(sha256(readFileSync(join(againDir, file))), file).toBe(sha256(readFileSync(join(firstDir, file))));
    }

    // The image itself is a workflow file for the CLI.
    const fromImage = await runCli(['run', join(firstDir, 'sd15-image.jpg'), '--out', 'direct'], { cwd, now: clock });
    expect(fromImage.code, fromImage.stderr).toBe(0);
    for (const file of images(firstDir)) {
      expect(sha256(readFileSync(join(cwd, 'direct', file))), file).toBe(sha256(readFileSync(join(firstDir, file))));
    }
  });

  it('an image with no workflow inside, or a damaged one, is refused with the reason', async () => {
    const cwd = tempDir();
    const plain = await runCli(['run', example('fan-out'), '--out', 'plain', '--no-embed'], { cwd });
    expect(plain.code, plain.stderr).toBe(0);
    const bare = await runCli(['run', 'plain/sdxl-image.jpg'], { cwd });
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain('plain/sdxl-image.jpg is an image with no Atelier workflow inside');

    await runCli(['run', example('fan-out'), '--out', 'with'], { cwd });
    const bytes = readFileSync(join(cwd, 'with', 'sdxl-image.jpg'));
    // Cut inside the embedded segments (they sit right after the JPEG's first marker).
    writeFileSync(join(cwd, 'cut.jpg'), bytes.subarray(0, 600));
    const cut = await runCli(['run', 'cut.jpg'], { cwd });
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/atelier: cut\.jpg: the image's workflow is incomplete/);
    expect(readdirSync(cwd)).not.toContain('atelier-out');
  });
});

describe('what never goes into an image', () => {
  const TOKEN = 'atl-CANARY-5d1e8b2f90c34a77-TOKEN';
  let upstream: MisbehavingServer;
  beforeAll(async () => {
    upstream = await startMisbehavingServer(answerWithLocalEngine);
  });
  afterAll(() => upstream.close());

  it('the token and the endpoint, even when the token was pasted into a prompt', async () => {
    const { code, cwd, stderr } = await runCli(['run', example('fan-out'), '--image-base-url', upstream.url,
      '--set', `prompt.text=a red fox ${TOKEN} in the snow`], { env: { ATELIER_TOKEN: TOKEN } });
    expect(code, stderr).toBe(0);
    expect(upstream.requests.length).toBe(2);
    for (const r of upstream.requests) expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(stderr).toContain('nodes[0].params.text holds the ATELIER_TOKEN value: it is left out of the workflow embedded in the images');
    expect(stderr).not.toContain(TOKEN);

    const dir = onlyRunDir(cwd);
    const { host, port } = new URL(upstream.url);
    for (const file of images(dir)) {
      const bytes = readFileSync(join(dir, file)).toString('latin1');
      expect(bytes.includes(TOKEN), file).toBe(false);
      expect(bytes.includes(host), file).toBe(false);
      expect(bytes.includes(`:${port}`), file).toBe(false);
      const { content, manifest } = embedded(join(dir, file));
      expect(loadWorkflow(content.workflow!, LOAD).workflow.nodes[0]!.params.text).toBe('a red fox [removed] in the snow');
      expect(manifest.requests[0]!.request).toMatchObject({ prompt: 'a red fox [removed] in the snow' });
    }
  });

  it('credentials written into the workflow: cleaned, with one warning per finding naming the node and field', async () => {
    const KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';
    const GITHUB = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
    const doc = JSON.parse(readFileSync(example('fan-out'), 'utf8')) as { metadata: { description: string }; nodes: { id: string; params: Record<string, unknown> }[] };
    doc.nodes.find((n) => n.id === 'prompt')!.params.text = `a red fox ${KEY} in the snow`;
    doc.metadata.description = `Shared by a careless person (${GITHUB})`;
    const cwd = tempDir();
    writeFileSync(join(cwd, 'leaky.json'), JSON.stringify(doc));
    const { code, stderr } = await runCli(['run', 'leaky.json'], { cwd });
    expect(code, stderr).toBe(0);

    const warnings = stderr.split('\n').filter((l) => l.includes('left out of the workflow embedded in the images'));
    expect(warnings).toEqual([
      "atelier: warning: the workflow's description holds a GitHub token: it is left out of the workflow embedded in the images (metadata.description)",
      'atelier: warning: text of “Prompt” (prompt) holds an API key (sk-…): it is left out of the workflow embedded in the images (nodes[0].params.text)',
    ]);
    expect(stderr).not.toContain(KEY);
    expect(stderr).not.toContain(GITHUB);
    const dir = onlyRunDir(cwd);
    expect(readManifest(dir).warnings).toEqual(expect.arrayContaining(warnings.map((w) => w.replace('atelier: warning: ', ''))));
    for (const file of images(dir)) {
      const bytes = readFileSync(join(dir, file)).toString('latin1');
      expect(bytes.includes(KEY) || bytes.includes(GITHUB), file).toBe(false);
      const { content, manifest } = embedded(join(dir, file));
      const reopened = loadWorkflow(content.workflow!, LOAD);
      expect(reopened.warnings).toEqual([]);
      expect(reopened.workflow.nodes[0]!.params.text).toBe('a red fox [removed] in the snow');
      expect(reopened.workflow.metadata.description).toBe('Shared by a careless person ([removed])');
      expect(manifest.requests[0]!.request).toMatchObject({ prompt: 'a red fox [removed] in the snow' });
    }
  });

  it('with --no-embed nothing is scanned or embedded, so nothing is said about it', async () => {
    const doc = JSON.parse(readFileSync(example('fan-out'), 'utf8')) as { nodes: { id: string; params: Record<string, unknown> }[] };
    doc.nodes.find((n) => n.id === 'prompt')!.params.text = 'a red fox sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';
    const cwd = tempDir();
    writeFileSync(join(cwd, 'leaky.json'), JSON.stringify(doc));
    const { code, stderr } = await runCli(['run', 'leaky.json', '--no-embed'], { cwd });
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain('embedded in the images');
    const dir = onlyRunDir(cwd);
    for (const file of images(dir)) expect(extractWorkflow(readFileSync(join(dir, file)))).toBeUndefined();
  });
});
