/**
 * The command line itself: help and version, usage errors (exit 2) that name the flag, the
 * refused --token, --set overrides, --to/--from, and validation that lists every problem and
 * sends nothing.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server';
import { answerWithLocalEngine, example, onlyRunDir, readManifest, runCli, tempDir } from './helpers';

describe('usage', () => {
  it('--help prints the usage on stdout and exits 0', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: atelier run <workflow.json>/);
    for (const flag of ['--out', '--image-base-url', '--text-base-url', '--set', '--concurrency', '--json', '--no-embed', '--model', '--to', '--from', 'ATELIER_TOKEN']) {
      expect(stdout).toContain(flag);
    }
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const { code, stdout } = await runCli(['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe(`atelier ${version}\n`);
  });

  it('with no arguments prints the usage on stderr and exits 2', async () => {
    const { code, stdout, stderr } = await runCli([]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^Usage: atelier run/);
  });

  it.each([
    [['--json'], /no command given/],
    [['run'], /run needs a workflow file/],
    [['draw', 'x.json'], /unknown command 'draw'/],
    [['run', 'a.json', 'b.json'], /one workflow file/],
    [['run', 'a.json', '--frobnicate'], /unknown option --frobnicate/],
    [['run', 'a.json', '--outdir=x'], /unknown option --outdir/],
    [['run', 'a.json', '-q'], /unknown option -q/],
    [['run', 'a.json', '--concurrency', '0'], /--concurrency must be a whole number from 1 to 64/],
    [['run', 'a.json', '--concurrency', '2.5'], /--concurrency must be a whole number/],
    [['run', 'a.json', '--out'], /--out/],
    [['run', 'a.json', '--to', 'x', '--from', 'y'], /--to and --from cannot be used together/],
    [['run', 'a.json', '--json=yes'], /--json/],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const { code, stderr, stdout } = await runCli(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain("Run 'atelier --help' for usage.");
    expect(stdout).toBe('');
  });

  it.each([['--token=s3cr3t-value-42'], ['--token', 's3cr3t-value-42'], ['--api-key=s3cr3t-value-42']])(
    'refuses %s, saying why, without echoing the value', async (...flag) => {
      const { code, stderr } = await runCli(['run', example('fan-out'), ...flag]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/is not accepted: a command line is visible to every user .* shell history/);
      expect(stderr).toContain('ATELIER_TOKEN');
      expect(stderr).not.toContain('s3cr3t-value-42');
    });

  it.each([
    ['https://user:pw@images.example.com', /must not carry a user name or password/],
    ['https://images.example.com/?key=abc123', /without a query or fragment/],
    ['ftp://images.example.com', /http or https/],
    ['not a url', /is not a URL/],
  ])('refuses the base URL %s (exit 2)', async (url, message) => {
    const { code, stderr, cwd } = await runCli(['run', example('fan-out'), '--image-base-url', url]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain('pw@');
    expect(existsSync(join(cwd, 'atelier-out'))).toBe(false);
  });

  it('a missing file or one that is not a workflow is exit 1 with the reason', async () => {
    const missing = await runCli(['run', 'nowhere.json']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read nowhere.json: no such file');
    const notWorkflow = await runCli(['run', join(example('fan-out'), '..', '..', '..', 'package.json')]);
    expect(notWorkflow.code).toBe(1);
    expect(notWorkflow.stderr).toMatch(/not an Atelier workflow file/);
  });
});

describe('--set', () => {
  it('overrides by id and by title (even one with a dot), JSON where the parameter takes it, text otherwise', async () => {
    const { code, cwd, stderr } = await runCli(['run', example('fan-out'),
      '--set', 'sdxl.num_images=3', '--set', 'sdxl.seed=99', '--set', 'SD 1.5.width=640', '--set', 'SD 1.5.height=512',
      '--set', 'prompt.text=42', '--set', 'preview-sd15.filename=fox'], {});
    expect(code, stderr).toBe(0);
    const dir = onlyRunDir(cwd);
    const m = readManifest(dir);
    expect(m.overrides).toEqual([
      { node: 'sdxl', param: 'num_images', value: 3 }, { node: 'sdxl', param: 'seed', value: 99 },
      { node: 'sd15', param: 'width', value: 640 }, { node: 'sd15', param: 'height', value: 512 },
      { node: 'prompt', param: 'text', value: '42' }, { node: 'preview-sd15', param: 'filename', value: 'fox' },
    ]);
    expect(m.nodes.sdxl!.seeds).toEqual([99, 100, 101]);
    expect(m.nodes.sdxl!.requests[0]!.request).toMatchObject({ prompt: '42', num_images: 3, seed: 99 });
    expect(readdirSync(dir).filter((f) => f.startsWith('sdxl-images-')).sort()).toEqual(['sdxl-images-0.jpg', 'sdxl-images-1.jpg', 'sdxl-images-2.jpg']);
    expect(await sharp(join(dir, 'sd15-image.jpg')).metadata()).toMatchObject({ width: 640, height: 512 });
    // The preview's file name is a request to save under it.
    expect(readFileSync(join(dir, 'fox.jpg'))).toEqual(readFileSync(join(dir, 'sd15-image.jpg')));
    expect(m.nodes['preview-sd15']!.outputs.shown!.files).toEqual(['fox.jpg']);
  });

  it('changes what the chat writes about', async () => {
    const { code, cwd, stderr } = await runCli(['run', example('chat-to-image'), '--set', 'Subject.text=a red fox in the snow']);
    expect(code, stderr).toBe(0);
    const text = readFileSync(join(onlyRunDir(cwd), 'writer-text.txt'), 'utf8');
    expect(text.toLowerCase()).toContain('fox');
    expect(text.toLowerCase()).not.toContain('lighthouse');
  });

  it.each([
    [['--set', 'nobody.seed=1'], /no node with id or title 'nobody'.*its nodes are prompt \("Prompt"\), sdxl \("SDXL"\)/],
    [['--set', 'sdxl.sed=1'], /node 'sdxl' \(text-to-image\) has no parameter 'sed'; its parameters are engine, prompt/],
    [['--set', 'sdxl=1'], /is not NODE.PARAM=VALUE/],
    [['--set', 'sdxl.seed'], /is not NODE.PARAM=VALUE/],
    [['--to', 'nobody'], /--to: no node with id or title 'nobody'/],
  ])('%j names what it cannot find (exit 2)', async (flags, message) => {
    const { code, stderr } = await runCli(['run', example('fan-out'), ...flags]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('passes values through the same boundary as a file: prototype keys and credentials are removed, with a warning', async () => {
    const key = 'sk-proj-4fQ9zL2mX8vB1nR7tK3wY6pA0sD5gH';
    const { code, cwd, stderr } = await runCli(['run', example('fan-out'), '--to', 'sdxl',
      '--set', 'sdxl.loras={"__proto__":{"polluted":1},"svc:film":0.5}', '--set', `sdxl.checkpoint=${key}`]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("--set: nodes[1].params.loras.__proto__: the key '__proto__'");
    expect(stderr).toContain('--set: nodes[1].params.checkpoint: holds what looks like an API key');
    expect(stderr).not.toContain(key);
    const m = readManifest(onlyRunDir(cwd));
    expect(JSON.stringify(m)).not.toContain(key);
    expect(JSON.stringify(m)).not.toContain('polluted');
    expect(m.nodes.sdxl!.requests[0]!.request).toMatchObject({ loras: { 'svc:film': 0.5 } });
    expect(m.nodes.sdxl!.requests[0]!.request).not.toHaveProperty('checkpoint');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a value the parameter does not take, naming it, and sends nothing', async () => {
    const { code, stderr } = await runCli(['run', example('fan-out'), '--set', `sdxl.prompt_2=${'x'.repeat(30_000)}`]);
    expect(code).toBe(1);
    expect(stderr).toContain('nothing was sent');
    expect(stderr).toMatch(/node 'sdxl': Prompt 2: is longer than/);
  });

  it('notes an override that a connected input makes pointless', async () => {
    const { code, stderr } = await runCli(['run', example('fan-out'), '--set', 'sdxl.prompt=ignored', '--to', 'sdxl']);
    expect(code).toBe(0);
    expect(stderr).toContain("--set sdxl.prompt has no effect: input 'prompt' of 'sdxl' is connected");
  });
});

describe('validation', () => {
  let upstream: MisbehavingServer;
  beforeAll(async () => {
    upstream = await startMisbehavingServer(answerWithLocalEngine);
  });
  afterAll(() => upstream.close());

  it('lists every problem with its node and field, exits 1, and sends nothing', async () => {
    const { code, stderr, cwd } = await runCli(['run', example('fan-out'), '--image-base-url', upstream.url,
      '--set', 'sdxl.width=333', '--set', 'sd15.steps=-1', '--set', 'preview-sdxl.filename=../escape']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/the workflow cannot run \(4 problems\); nothing was sent/);
    expect(stderr).toMatch(/node 'sdxl': Resolution: .*333/);
    expect(stderr).toMatch(/node 'sd15': Steps: /);
    expect(stderr).toMatch(/node 'preview-sdxl': File name: /);
    expect(upstream.requests).toHaveLength(0);
    expect(existsSync(join(cwd, 'atelier-out'))).toBe(false);
  });

  it('takes no endpoint or token from the workflow file: such fields are dropped with a warning', async () => {
    const doc = JSON.parse(readFileSync(example('fan-out'), 'utf8')) as { nodes: { id: string; params: Record<string, unknown> }[] } & Record<string, unknown>;
    doc.imageBaseUrl = upstream.url;
    doc.token = 'sk-abcdefghijklmnopqrstuvwxyz0123';
    doc.nodes.find((n) => n.id === 'sdxl')!.params.base_url = upstream.url;
    const cwd = tempDir();
    writeFileSync(join(cwd, 'hostile.json'), JSON.stringify(doc));
    const { code, stderr } = await runCli(['run', 'hostile.json'], { cwd });
    expect(code, stderr).toBe(0);
    expect(upstream.requests).toHaveLength(0);
    expect(stderr).toMatch(/warning: hostile.json: imageBaseUrl: .*removed/);
    expect(stderr).toMatch(/warning: hostile.json: nodes\[1\]\.params\.base_url: .*removed/);
    expect(readManifest(onlyRunDir(cwd)).endpoints).toEqual({ image: 'local', text: 'local' });
  });

  it('asks for --model when chat goes to a real endpoint and the node names no model', async () => {
    const { code, stderr } = await runCli(['run', example('chat-to-image'), '--text-base-url', upstream.url]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/node 'writer': model: no chat model: set one on the node or pass --model NAME/);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('--to and --from', () => {
  it('--to runs a node and what it depends on, nothing else', async () => {
    const { code, cwd, stderr } = await runCli(['run', example('fan-out'), '--to', 'SD 1.5']);
    expect(code, stderr).toBe(0);
    const m = readManifest(onlyRunDir(cwd));
    expect(m.scope).toEqual({ mode: 'to', node: 'sd15' });
    expect(Object.keys(m.nodes).sort()).toEqual(['prompt', 'sd15']);
  });

  it('--from runs a node and everything downstream (with what it needs)', async () => {
    const { code, cwd, stderr } = await runCli(['run', example('restyle-chain'), '--from', 'restyle']);
    expect(code, stderr).toBe(0);
    const m = readManifest(onlyRunDir(cwd));
    expect(m.scope).toEqual({ mode: 'from', node: 'restyle' });
    expect(Object.keys(m.nodes).sort()).toEqual(['draw', 'mask', 'preview', 'restyle', 'sky']);
  });
});
