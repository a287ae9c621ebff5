/**
 * A token that is also a word. Local OpenAI-compatible servers take any token, and people give
 * them `none`, `ollama`, `text`: such a token must not rewrite the run's outputs, its --json
 * events, its file names or the workflow embedded in its images. What protects the token is its
 * place: echoed back in a header, even a short one is never printed; a real-looking one a server
 * quotes anywhere in its error is taken out.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractWorkflow } from '../../workflow/embed';
import { sendJson, sendText, startMisbehavingServer, type MisbehavingServer } from '../helpers/misbehaving-server';
import { example, onlyRunDir, readManifest, runCli } from './helpers';

/** A subject the local chat engine carries into its prompt, so its output holds the word `text`. */
const SUBJECT = 'subject.text=a shop sign with the text OPEN in neon';

describe.each(['text', 'none', 'ollama'])('ATELIER_TOKEN=%s against the local engines', (token) => {
  it('keeps the word in outputs, --json events, file names and the embedded workflow', async () => {
    const subject = token === 'text' ? SUBJECT : `subject.text=a shop sign with the text OPEN and the word ${token} in neon`;
    const { code, stdout, stderr, cwd } = await runCli(['run', example('chat-to-image'), '--json', '--set', subject], { env: { ATELIER_TOKEN: token } });
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain('[redacted]');
    expect(stderr).not.toContain('warning');

    const dir = onlyRunDir(cwd);
    expect(readdirSync(dir).sort()).toEqual(['draw-images-0.jpg', 'draw-images-1.jpg', 'manifest.json', 'subject-text.txt', 'writer-text.txt']);
    const written = readFileSync(join(dir, 'writer-text.txt'), 'utf8');
    expect(written).toContain(' text ');
    expect(written).toContain(token);

    expect(stdout).not.toContain('[redacted]');
    const events = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; nodeId?: string; [k: string]: unknown });
    expect(events.some((e) => e.type === 'node-partial-text')).toBe(true);
    const done = events.find((e) => e.type === 'node-done' && e.nodeId === 'writer') as unknown as { outputs: { text: { kind: string; value: string; file: string } } };
    expect(done.outputs.text).toEqual({ kind: 'text', value: written, file: 'writer-text.txt' });

    const manifest = readFileSync(join(dir, 'manifest.json'), 'utf8');
    expect(manifest).not.toContain('[redacted]');
    expect(readManifest(dir).files).toContain('writer-text.txt');

    const content = extractWorkflow(readFileSync(join(dir, 'draw-images-0.jpg')));
    expect(content?.workflow, 'the image carries the workflow').toBeDefined();
    const embedded = JSON.parse(content!.workflow!) as { nodes: { id: string; type: string; params: Record<string, unknown> }[] };
    expect(embedded.nodes.find((n) => n.id === 'subject')).toMatchObject({ type: 'text', params: { text: subject.slice('subject.text='.length) } });
    expect(JSON.stringify(content?.manifest)).not.toContain('[removed');
  });
});

describe('a server that echoes the request into its error', () => {
  let upstream: MisbehavingServer;
  beforeAll(async () => {
    upstream = await startMisbehavingServer();
  });
  afterAll(() => upstream.close());

  const runWriter = (token: string) => runCli(['run', example('chat-to-image'), '--text-base-url', upstream.url, '--to', 'writer', '--model', 'llama3', '--json'], { env: { ATELIER_TOKEN: token } });

  it('never prints a short token back from the request\'s own headers', async () => {
    upstream.handle((req, res) => sendText(res, 401, `no such key. request headers:\nAuthorization: ${String(req.headers.authorization)}\n`
      + `as JSON: ${JSON.stringify({ authorization: req.headers.authorization, 'x-api-key': 'ollama' })}`));
    const { code, stdout, stderr, cwd } = await runWriter('ollama');
    expect(code).toBe(1);
    expect(upstream.requests.at(-1)?.headers.authorization).toBe('Bearer ollama');
    expect(stderr).toContain('no such key. request headers:');
    expect(stderr).toContain('Authorization: Bearer [redacted]');
    for (const text of [stdout, stderr, readFileSync(join(onlyRunDir(cwd), 'manifest.json'), 'utf8')]) expect(text).not.toContain('ollama');
  });

  it('takes a real-looking token out wherever the error quotes it', async () => {
    const token = 'sk-local-9f8e7d6c5b4a39281706';
    upstream.handle((_req, res) => sendJson(res, 401, { error: { message: `the key ${token} is not valid for this text model` } }));
    const { code, stdout, stderr, cwd } = await runWriter(token);
    expect(code).toBe(1);
    expect(stderr).toContain('the key [redacted] is not valid for this text model');
    for (const text of [stdout, stderr, readFileSync(join(onlyRunDir(cwd), 'manifest.json'), 'utf8')]) expect(text).not.toContain(token);
  });
});
