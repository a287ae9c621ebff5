/**
 * Running the CLI in tests: in-process through `main` (fast, with captured output), or as the
 * real command (`node bin/atelier.mjs`). Each run gets its own temporary working folder.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerResponse } from 'node:http';
import { validateImageRequest } from '../../api/image';
import { main } from '../../cli/main';
import type { Manifest } from '../../cli/manifest';
import { generateImages } from '../../server/engines/image';
import { sendJson, sendText, type RecordedRequest } from '../helpers/misbehaving-server';

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
export const EXAMPLES = join(ROOT, 'public', 'examples');
export const example = (name: string) => join(EXAMPLES, `${name}.json`);

export function tempDir(prefix = 'atelier-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  cwd: string;
}

export interface InProcessOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  interrupt?: AbortSignal;
  stderrIsTTY?: boolean;
  /** The CLI's clock (run id, manifest times), for runs that must give the same bytes twice. */
  now?: () => Date;
}

/** Runs `atelier <argv>` in this process; retries are immediate so failures are quick. */
export async function runCli(argv: string[], options: InProcessOptions = {}): Promise<CliResult> {
  const cwd = options.cwd ?? tempDir();
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text), isTTY: options.stderrIsTTY ?? false },
    env: options.env ?? {},
    cwd,
    interrupt: options.interrupt,
    client: { retry: { baseDelayMs: 1, maxDelayMs: 5 } },
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  return { code, stdout, stderr, cwd };
}

export interface SpawnedCli {
  /** Everything on stderr so far. */
  stderr(): string;
  stdout(): string;
  /** Resolves once stderr matches. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<void>;
  signal(name: NodeJS.Signals): void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the real command, `node bin/atelier.mjs <argv>`, in `cwd`. */
export function spawnCli(argv: string[], cwd: string, env: Record<string, string> = {}): SpawnedCli {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ATELIER_')) clean[k] = v;
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'atelier.mjs'), ...argv], { cwd, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    for (const w of waiters) w();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  return {
    stderr: () => err,
    stdout: () => out,
    waitForStderr(pattern, timeoutMs = 15_000) {
      return new Promise((done, fail) => {
        const check = () => {
          if (!pattern.test(err)) return;
          waiters.delete(check);
          clearTimeout(timer);
          done();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`stderr did not match ${pattern} within ${timeoutMs} ms:\n${err}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    signal: (name) => child.kill(name),
    exited,
  };
}

/** The single run folder under `<cwd>/atelier-out`. */
export function onlyRunDir(cwd: string): string {
  const runs = readdirSync(join(cwd, 'atelier-out'));
  if (runs.length !== 1) throw new Error(`expected one run folder, found ${runs.join(', ') || 'none'}`);
  return join(cwd, 'atelier-out', runs[0]!);
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

/** Answers an image request with the real local engine, as the service would. */
export async function answerWithLocalEngine(req: RecordedRequest, res: ServerResponse): Promise<void> {
  const engine = req.url.split('/').pop() ?? '';
  const checked = validateImageRequest(engine, JSON.parse(req.body) as unknown);
  if (!checked.ok) {
    sendText(res, 400, JSON.stringify(checked.issues));
    return;
  }
  sendJson(res, 200, await generateImages(checked.value));
}
