/**
 * A stand-in for the hosted service, started inside a test, that records exactly what the
 * forwarder sends it. The chat stream holds back after its first chunk until `release()`, so a
 * test can prove the forwarder passes events through as they come rather than buffering.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A streamed chat answer held after its first chunk. */
export interface HeldStream {
  /** Lets the stream send the rest of its chunks. */
  release(): void;
  /** Resolves when its connection closes: completed, or abandoned by the forwarder. */
  closed: Promise<{ completed: boolean }>;
}

export interface FakeUpstream {
  url: string;
  received: Received[];
  /** Resolves with the n-th (0-based) streamed chat request once it has arrived. */
  stream(n: number): Promise<HeldStream>;
  close(): Promise<void>;
}

const chunk = (delta: Record<string, unknown>, finish: string | null) =>
  `data: ${JSON.stringify({ id: 'up-1', object: 'chat.completion.chunk', created: 1, model: 'upstream-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

export const UPSTREAM_STREAM = [
  chunk({ role: 'assistant', content: null }, null),
  chunk({ content: 'misty ' }, null),
  chunk({ content: 'pines' }, 'stop'),
  'data: [DONE]\n\n',
];

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const received: Received[] = [];
  const streams: HeldStream[] = [];
  const waiting: (() => void)[] = [];

  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (p: Buffer) => parts.push(p));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = req.url ?? '';
      if (path.endsWith('/generate/sd') && body.includes('echo the request')) {
        // A careless upstream that repeats the request, headers included, in its error text.
        res.writeHead(400, { 'Content-Type': 'text/plain' });
        res.end(`bad request; you sent ${JSON.stringify(req.headers)} with ${body}`);
      } else if (path.endsWith('/generate/sdxl') || path.endsWith('/generate/sd')) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': 'session=upstream', 'X-Request-Id': 'req-42' });
        res.end(JSON.stringify({ images: [{ image_b64: '/9j/AAAA', seed: 7 }], prediction_time_ms: 12 }));
      } else if (path.endsWith('/generate/controlnet-sdxl')) {
        res.writeHead(429, { 'Content-Type': 'text/plain', 'Retry-After': '3' });
        res.end('slow down');
      } else if (path.endsWith('/v1/models')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'upstream-model', object: 'model' }] }));
      } else if (path.endsWith('/v1/chat/completions') && (JSON.parse(body) as { stream?: boolean }).stream) {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write(UPSTREAM_STREAM[0]);
        const closed = new Promise<{ completed: boolean }>((r) => res.on('close', () => r({ completed: res.writableFinished })));
        streams.push({
          release: () => {
            if (!res.destroyed) res.end(UPSTREAM_STREAM.slice(1).join(''));
          },
          closed,
        });
        for (const wake of waiting.splice(0)) wake();
      } else if (path.endsWith('/v1/chat/completions')) {
        res.writeHead(302, { Location: 'http://elsewhere.example/steal' });
        res.end();
      } else {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('no such path upstream');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    async stream(n) {
      while (streams[n] === undefined) await new Promise<void>((r) => waiting.push(r));
      return streams[n];
    },
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
