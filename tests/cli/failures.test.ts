/**
 * Runs that go wrong, and what must never leak: a failing engine (exit 1 naming the node while
 * the independent branch is still written), the token (sent to the endpoint, written nowhere),
 * and Ctrl-C on the real command (exit 130 promptly, requests aborted, partial results kept).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractWorkflow } from '../../workflow/embed';
import { sendText, startMisbehavingServer, startStream, streamFrames, type MisbehavingServer } from '../helpers/misbehaving-server';
import { answerWithLocalEngine, example, onlyRunDir, readManifest, runCli, spawnCli, tempDir } from './helpers';

const TOKEN = 'atl-CANARY-7f3a9c5e1b2d4f60-TOKEN';

/** Every file under `dir`, as text (binary files too: a token would show as its bytes). */
function everyFile(dir: string): { name: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ name: join(e.parentPath, e.name), text: readFileSync(join(e.parentPath, e.name), 'latin1') }));
}

let upstream: MisbehavingServer;
beforeAll(async () => {
  upstream = await startMisbehavingServer();
});
afterAll(() => upstream.close());
beforeEach(() => {
  upstream.requests.length = 0;
  // SD 1.5 is down, and its error page carelessly echoes the request's Authorization header.
  upstream.handle(async (req, res) => {
    if (req.url.endsWith('/generate/sd')) sendText(res, 500, `sd engine is down (request had ${String(req.headers.authorization)})`);
    else await answerWithLocalEngine(req, res);
  });
});

describe('a failing node', () => {
  it('exits 1 naming the node and why, skips what depends on it, and still writes the other branch', async () => {
    const { code, stderr, cwd } = await runCli(['run', example('fan-out'), '--image-base-url', upstream.url]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/1 of 5 nodes failed, 1 skipped/);
    expect(stderr).toMatch(/ {2}sd15: .*500.*sd engine is down/);
    expect(stderr).toMatch(/skipped +preview-sd15 +\('sd15' failed\)/);
    const dir = onlyRunDir(cwd);
    expect(existsSync(join(dir, 'sdxl-image.jpg'))).toBe(true);
    expect(readdirSync(dir).some((f) => f.startsWith('sd15'))).toBe(false);
    const m = readManifest(dir);
    expect(m.status).toBe('failed');
    expect(m.endpoints.image).toBe(new URL(upstream.url).host);
    expect(m.endpoints.text).toBe('local');
    expect(m.failures).toEqual([{ nodeId: 'sd15', error: expect.objectContaining({ status: 500, kind: 'http' }) as unknown }]);
    expect(m.nodes.sd15).toMatchObject({ status: 'failed' });
    // Three attempts were made (retries of a 500), each recorded once as one call.
    expect(upstream.requests.filter((r) => r.url.endsWith('/generate/sd'))).toHaveLength(3);
    expect(m.nodes.sd15!.requests).toHaveLength(1);
    expect(m.nodes['preview-sd15']).toMatchObject({ status: 'skipped', skippedBecause: 'sd15' });
    expect(m.nodes['preview-sdxl']).toMatchObject({ status: 'done' });
  });
});

describe('the token', () => {
  it('goes to the given endpoint as a bearer token and into no file, stdout or stderr', async () => {
    const env = { ATELIER_TOKEN: TOKEN };
    const { code, stdout, stderr, cwd } = await runCli(['run', example('fan-out'), '--image-base-url', upstream.url, '--json'], { env });
    expect(code).toBe(1);
    // It was really used, and the service's echo of it really came back…
    expect(upstream.requests.length).toBeGreaterThan(0);
    for (const r of upstream.requests) expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // …yet it appears nowhere the CLI wrote.
    expect(stdout).not.toContain(TOKEN);
    expect(stderr).not.toContain(TOKEN);
    const files = everyFile(cwd);
    expect(files.map((f) => f.name.split("/").pop()).sort()).toEqual(["manifest.json", "prompt-text.txt", "sdxl-image.jpg"]);
    for (const f of files) expect(f.text.includes(TOKEN), f.name).toBe(false);
    expect(stderr).toContain('[redacted]');
  });

  it('pasted into a prompt, is the person\'s words on stdout and in the text output, and left out of the files that travel', async () => {
    const env = { ATELIER_TOKEN: TOKEN };
    const { code, stdout, cwd } = await runCli(['run', example('fan-out'), '--image-base-url', upstream.url, '--json', '--to', 'sdxl',
      '--set', `prompt.text=a fox, ${TOKEN}`], { env });
    expect(code).toBe(0);
    // What people wrote is never rewritten: the events and the text output say it as it was set.
    expect(stdout).toContain('node-request');
    expect(stdout).not.toContain('[redacted]');
    expect(stdout).toContain(`a fox, ${TOKEN}`);
    const dir = onlyRunDir(cwd);
    expect(readFileSync(join(dir, 'prompt-text.txt'), 'utf8')).toBe(`a fox, ${TOKEN}`);
    // A real-looking key is left out of what goes along with the images.
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).not.toContain(TOKEN);
    const content = extractWorkflow(readFileSync(join(dir, 'sdxl-image.jpg')));
    expect(content?.workflow).toBeDefined();
    expect(content?.workflow).not.toContain(TOKEN);
    expect(JSON.stringify(content?.manifest)).not.toContain(TOKEN);
  });

  it('is not sent to the local engines, and a note says it is unused', async () => {
    const { code, stderr, cwd } = await runCli(['run', example('fan-out')], { env: { ATELIER_TOKEN: TOKEN } });
    expect(code).toBe(0);
    expect(stderr).toContain('ATELIER_TOKEN is set but not used');
    for (const f of everyFile(cwd)) expect(f.text.includes(TOKEN)).toBe(false);
  });
});

describe('a chat stream that finished but closed without [DONE]', () => {
  it('keeps the text, finishes the node, and warns on stderr and in the manifest', async () => {
    upstream.handle((_req, res) => {
      startStream(res, streamFrames(['A lighthouse ', 'on a cliff at dawn'], { done: false }));
      res.end();
    });
    const { code, stderr, cwd } = await runCli(['run', example('chat-to-image'), '--text-base-url', upstream.url, '--model', 'mixtral-8x7b-instruct', '--to', 'writer']);
    expect(code, stderr).toBe(0);
    expect(upstream.requests.map((r) => r.url)).toEqual(['/v1/chat/completions']);
    const dir = onlyRunDir(cwd);
    expect(readFileSync(join(dir, 'writer-text.txt'), 'utf8')).toBe('A lighthouse on a cliff at dawn');
    expect(stderr).toMatch(/warning: node 'writer': the chat stream ended without \[DONE\]/);
    const m = readManifest(dir);
    expect(m.nodes.writer).toMatchObject({ status: 'done' });
    expect(m.warnings).toEqual([expect.stringMatching(/^node 'writer': .*without \[DONE\].*complete and kept$/)]);
  });
});

describe('--json', () => {
  it('prints the event stream as JSON lines, image data replaced by sizes and files', async () => {
    const { code, stdout, cwd } = await runCli(['run', example('fan-out'), '--json']);
    expect(code).toBe(0);
    const events = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; nodeId?: string; [k: string]: unknown });
    expect(events[0]!.type).toBe('run-started');
    expect(events.at(-1)!.type).toBe('run-finished');
    expect(events.at(-1)).toMatchObject({ summary: { status: 'succeeded', apiCalls: 2 } });
    const types = (id: string) => events.filter((e) => e.nodeId === id).map((e) => e.type);
    expect(types('sdxl')).toEqual(['node-queued', 'node-started', 'node-progress', 'node-request', 'node-progress', 'node-done']);
    const done = events.find((e) => e.type === 'node-done' && e.nodeId === 'sdxl') as unknown as { outputs: { image: { kind: string; value: Record<string, unknown> } } };
    const dir = onlyRunDir(cwd);
    // `bytes` is the image as the service sent it; the file also carries the workflow.
    const file = readFileSync(join(dir, 'sdxl-image.jpg'));
    const sent = extractWorkflow(file)!.manifest!.image as { bytes: number };
    expect(done.outputs.image).toEqual({
      kind: 'image',
      value: { mime: 'image/jpeg', seed: 11, width: 1024, height: 1024, bytes: sent.bytes, file: 'sdxl-image.jpg' },
    });
    expect(file.length).toBeGreaterThan(sent.bytes);
    const text = events.find((e) => e.type === 'node-done' && e.nodeId === 'prompt') as unknown as { outputs: { text: unknown } };
    expect(text.outputs.text).toEqual({ kind: 'text', value: 'a red fox in the snow, morning light, detailed fur', file: 'prompt-text.txt' });
    expect(stdout).not.toMatch(/[A-Za-z0-9+/]{300}/);
  });
});

describe('progress on stderr', () => {
  it('shows chat text as it streams when stderr is a terminal, and not otherwise', async () => {
    const tty = await runCli(['run', example('chat-to-image')], { stderrIsTTY: true });
    expect(tty.code).toBe(0);
    const streamed = readFileSync(join(onlyRunDir(tty.cwd), 'writer-text.txt'), 'utf8');
    expect(tty.stderr).toContain('writer │ ');
    // Every streamed word reached the terminal (the dim/undim codes around it aside).
    expect(tty.stderr.replaceAll('\x1b[2m', '').replaceAll('\x1b[22m', '')).toContain(streamed.slice(0, 40));
    const piped = await runCli(['run', example('chat-to-image')]);
    expect(piped.stderr).not.toContain('│');
    expect(piped.stderr).toMatch(/started +writer\n {2}done +writer +\d+ ms/);
  });
});

describe('Ctrl-C', () => {
  it('aborts the requests in flight, writes what is done and the manifest, and exits 130', async () => {
    // Every image request hangs until the client gives up.
    upstream.handle(() => new Promise<void>(() => undefined));
    const cwd = tempDir();
    const cli = spawnCli(['run', example('fan-out'), '--image-base-url', upstream.url], cwd);
    await cli.waitForStderr(/started +sdxl[\s\S]*started +sd15|started +sd15[\s\S]*started +sdxl/);
    while (upstream.requests.length < 2) await new Promise((r) => setTimeout(r, 20));
    cli.signal('SIGINT');
    const { code } = await cli.exited;
    expect(code).toBe(130);
    await Promise.all(upstream.requests.map((r) => upstream.clientHungUp(r.index)));
    expect(cli.stderr()).toMatch(/interrupted after .*: 1 of 5 nodes finished/);
    const dir = onlyRunDir(cwd);
    expect(readFileSync(join(dir, 'prompt-text.txt'), 'utf8')).toContain('red fox');
    const m = readManifest(dir);
    expect(m.status).toBe('interrupted');
    expect(m.finished).not.toBeNull();
    expect(m.nodes.sdxl!.status).toBe('cancelled');
    expect(m.nodes.sd15!.status).toBe('cancelled');
    expect(m.nodes.sdxl!.requests).toHaveLength(1);
  });
});
