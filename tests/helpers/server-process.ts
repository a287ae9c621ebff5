/**
 * Starts the real server (`node --import tsx server/main.ts`) on a free port for contract tests,
 * with a clean environment: no inherited ATELIER_* settings, no user config file, no built editor,
 * no simulated latency unless the test asks. Captures everything the process prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

export interface ServerProcess {
  /** `http://127.0.0.1:PORT` as printed on the listening line. */
  url: string;
  port: number;
  /** Everything printed on stdout and stderr so far, interleaved. */
  output(): string;
  /** Resolves once the output matches, with the output so far. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Sends SIGTERM and waits for the process to exit. */
  stop(): Promise<{ code: number | null; output: string }>;
}

type Env = Record<string, string | undefined>;

/** The environment a test server runs with: a sandbox, overridden by `overrides`. */
function serverEnv(overrides: Env, sandbox: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('ATELIER_') && key !== 'HOST' && key !== 'PORT') env[key] = value;
  }
  Object.assign(env, {
    HOME: sandbox,
    HOST: '127.0.0.1',
    PORT: '0',
    ATELIER_LOCAL_STEP_MS: '0',
    ATELIER_LOCAL_TOKEN_MS: '0',
    ATELIER_DIST_DIR: join(sandbox, 'no-dist'),
  });
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

function spawnServer(overrides: Env): { child: ChildProcess; output: () => string; onOutput: (f: () => void) => void } {
  // An empty HOME and dist folder: the developer's own config file and build never leak in.
  const sandbox = mkdtempSync(join(tmpdir(), 'atelier-server-test-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: PROJECT_ROOT,
    env: serverEnv(overrides, sandbox),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.once('exit', () => rmSync(sandbox, { recursive: true, force: true }));
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  return { child, output: () => text, onOutput: (f) => listeners.add(f) };
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolveExit) => child.once('exit', (code) => resolveExit(code)));
}

/** Starts a server and resolves once it prints its listening line. */
export async function startServer(overrides: Env = {}): Promise<ServerProcess> {
  const { child, output, onOutput } = spawnServer(overrides);
  const waitForOutput = (pattern: RegExp, timeoutMs = 15_000) =>
    new Promise<string>((resolveWait, rejectWait) => {
      const check = () => {
        if (pattern.test(output())) {
          clearTimeout(timer);
          resolveWait(output());
        }
      };
      const timer = setTimeout(() => rejectWait(new Error(`server output never matched ${pattern}; output:\n${output()}`)), timeoutMs);
      onOutput(check);
      check();
    });

  const listening = waitForOutput(/Atelier listening on (http:\/\/\S+)/);
  const early = exited(child).then((code) => {
    throw new Error(`server exited with code ${code} before listening; output:\n${output()}`);
  });
  await Promise.race([listening, early]);
  early.catch(() => undefined);
  const url = /Atelier listening on (http:\/\/\S+)/.exec(output())![1]!;

  return {
    url,
    port: Number(new URL(url).port),
    output,
    waitForOutput,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited(child);
        clearTimeout(timer);
      }
      return { code: child.exitCode, output: output() };
    },
  };
}

/** Runs a server that is expected to refuse to start; resolves with its exit code and output. */
export async function runServerExpectingExit(overrides: Env, timeoutMs = 15_000): Promise<{ code: number | null; output: string }> {
  const { child, output } = spawnServer(overrides);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await exited(child);
  clearTimeout(timer);
  return { code, output: output() };
}
