import { createServer } from 'node:net';

/** A port on 127.0.0.1 with nothing listening on it, for an unreachable server. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}
