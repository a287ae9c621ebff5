/**
 * The real process around `main`: stdio, the environment, and Ctrl-C. The first SIGINT (or
 * SIGTERM) aborts the run in flight, which still writes its partial outputs and manifest and
 * exits with 130; a second one exits at once.
 */
import { EXIT, main } from './main';

export async function runProcess(argv: readonly string[] = process.argv.slice(2)): Promise<never> {
  const interrupt = new AbortController();
  const onSignal = () => {
    if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
    process.stderr.write('\natelier: interrupted; stopping requests in flight and writing what is done (Ctrl-C again to quit at once)\n');
    interrupt.abort(new DOMException('interrupted', 'AbortError'));
  };
  // A reader that goes away (`atelier run --json … | head`) must not end the run unwritten:
  // what is left to print is dropped, the outputs and the manifest are still written.
  const ignoreClosedPipe = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  };
  process.stdout.on('error', ignoreClosedPipe);
  process.stderr.on('error', ignoreClosedPipe);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await main(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    interrupt: interrupt.signal,
  });
  // Idle keep-alive sockets must not hold the process open once the work is done.
  await new Promise<void>((done) => process.stdout.write('', () => done()));
  process.exit(code);
}
