/**
 * What the command needs from its surroundings, and its exit codes. Kept apart from the run so
 * `--help` and `--version` answer without loading the executor and the node catalogue.
 */
import type { ClientConfig } from '../api/http';

export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface CliIo {
  stdout: TextSink;
  stderr: TextSink;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Aborting it interrupts the run as Ctrl-C does (the process wires SIGINT to it). */
  interrupt?: AbortSignal;
  /** API client settings for tests (retry timing); not reachable from the command line. */
  client?: Partial<Omit<ClientConfig, 'baseUrl' | 'token'>>;
  now?: () => Date;
}

export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** The run cannot start: a file or workflow problem (exit 1), with each problem listed. */
export class PrepareError extends Error {
  override name = 'PrepareError';
  constructor(message: string, readonly problems: readonly string[] = []) {
    super(message);
  }
}
