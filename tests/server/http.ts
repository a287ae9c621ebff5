/**
 * A plain node:http client for contract tests that need what fetch will not do: a forged Host
 * header, a chunked body of a chosen size, or a body cut off mid-way.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  /** Sent with a Content-Length, unless `chunks` is used instead. */
  body?: string | Buffer;
  /** Sent one by one with chunked transfer encoding (no Content-Length). */
  chunks?: readonly Buffer[];
}

/** Sends one request to `${base}${path}` and collects the whole response. */
export function raw(base: string, path: string, options: RawRequest = {}): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolveRequest, rejectRequest) => {
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path,
      method: options.method ?? 'GET',
      headers: options.headers,
      agent: false,
    }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => {
        const body = Buffer.concat(parts);
        resolveRequest({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', rejectRequest);
    });
    req.on('error', rejectRequest);
    if (options.chunks !== undefined) {
      for (const chunk of options.chunks) req.write(chunk);
      req.end();
    } else {
      req.end(options.body);
    }
  });
}

/** POSTs a JSON value (or raw text) with `Content-Type: application/json`. */
export function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(base, path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
