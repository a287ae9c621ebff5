/**
 * The ComfyUI double (comfyui.ts) in a process of its own, as a real GPU server is: its HTTP,
 * WebSocket and PNG work then runs beside the client instead of on the client's event loop, so a
 * fan-out over several of them measures the pool, not one thread doing everyone's work. The
 * parent talks to it over Node's IPC channel: the child says its URL once listening, answers
 * `counts` with what it received, and `kill()` ends it at once (SIGKILL, as a crashed server).
 *
 * Run as a script (`node --import tsx comfyui-process.ts`), it is the child.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startComfyDouble, type ComfyDoubleOptions } from './comfyui';

/** What a double in its own process received: its POST /prompt count and every request line. */
export interface ProcessCounts {
  prompts: number;
  requests: number;
}

export interface ComfyDoubleProcess {
  url: string;
  pid: number;
  counts(): Promise<ProcessCounts>;
  /** Ends the process at once, as a crashed server: open connections are reset. */
  kill(): Promise<void>;
  /** Ends it cleanly. */
  close(): Promise<void>;
}

type ToChild = { type: 'counts' };
type FromChild = { type: 'listening'; url: string } | { type: 'counts'; counts: ProcessCounts };

const here = fileURLToPath(import.meta.url);

/** Starts the double in a child process with `options` (functions cannot cross; plain data only). */
export function startComfyDoubleProcess(options: ComfyDoubleOptions = {}): Promise<ComfyDoubleProcess> {
  const child = fork(here, [JSON.stringify(options)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const early = (code: number | null) => reject(new Error(`the ComfyUI double process ended before listening (exit ${code})`));
    child.once('exit', early);
    child.once('message', (message: FromChild) => {
      child.off('exit', early);
      if (message.type !== 'listening') return reject(new Error('the ComfyUI double process spoke before listening'));
      resolve(handle(child, message.url, exited));
    });
  });
}

function handle(child: ChildProcess, url: string, exited: Promise<void>): ComfyDoubleProcess {
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    url,
    pid: child.pid!,
    counts: () => new Promise((resolve, reject) => {
      const gone = () => reject(new Error('the ComfyUI double process has ended'));
      child.once('exit', gone);
      const answer = (message: FromChild) => {
        if (message.type !== 'counts') return;
        child.off('message', answer);
        child.off('exit', gone);
        resolve(message.counts);
      };
      child.on('message', answer);
      child.send({ type: 'counts' } satisfies ToChild);
    }),
    kill: () => end('SIGKILL'),
    close: () => end('SIGTERM'),
  };
}

async function runChild(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as ComfyDoubleOptions;
  const double = await startComfyDouble(options);
  process.on('message', (message: ToChild) => {
    if (message.type === 'counts') {
      process.send?.({ type: 'counts', counts: { prompts: double.received.prompts.length, requests: double.received.requests.length } } satisfies FromChild);
    }
  });
  // The parent going away (its IPC channel closing) ends the double too: no orphans.
  process.on('disconnect', () => { void double.close().then(() => process.exit(0)); });
  process.on('SIGTERM', () => { void double.close().then(() => process.exit(0)); });
  process.send?.({ type: 'listening', url: double.url } satisfies FromChild);
}

// Imported, it only starts children; run by fork() (with an IPC channel), it is one.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === here && process.send !== undefined) await runChild();
