/**
 * The `atelier` command: parses the arguments and dispatches, turning every error into a
 * message on stderr and an exit code. Called in-process by the tests and by bin/atelier.mjs
 * (through cli/process.ts) for the real command.
 */
import { readFileSync } from 'node:fs';
import { redact } from '../api/errors';
import { parseCliArgs, UsageError, USAGE } from './args';
import { EXIT, PrepareError, type CliIo } from './io';

export type { CliIo };
export { EXIT };

/** The version in package.json. */
export function atelierVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

/** Runs the command line `argv` (without node and the script name); resolves with the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const token = io.env.ATELIER_TOKEN?.trim();
  const secrets = token === undefined || token === '' ? [] : [token];
  const fail = (text: string) => io.stderr.write(`atelier: ${redact(text, secrets)}\n`);
  if (argv.length === 0) {
    io.stderr.write(USAGE);
    return EXIT.usage;
  }
  try {
    const args = parseCliArgs(argv);
    switch (args.command) {
      case 'help':
        io.stdout.write(USAGE);
        return EXIT.ok;
      case 'version':
        io.stdout.write(`atelier ${atelierVersion()}\n`);
        return EXIT.ok;
      case 'app-help': {
        const [{ appHelpText }, { loadForRun }] = await Promise.all([import('./app-inputs'), import('./prepare')]);
        io.stdout.write(appHelpText(args.file, (await loadForRun(args.file, io.cwd)).workflow));
        return EXIT.ok;
      }
      case 'run': {
        // Loaded only for a run: help and version answer without the executor and the nodes.
        const { runCommand } = await import('./run');
        return await runCommand(args, io, atelierVersion());
      }
    }
  } catch (error) {
    if (error instanceof UsageError) {
      fail(`${error.message}\nRun 'atelier --help' for usage.`);
      return EXIT.usage;
    }
    if (error instanceof PrepareError) {
      fail([error.message, ...error.problems.map((p) => `  - ${p}`)].join('\n'));
      return EXIT.failed;
    }
    const message = error instanceof Error ? error.message : String(error);
    fail(`error: ${message}`);
    return EXIT.failed;
  }
}
