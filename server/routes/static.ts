/**
 * `GET /` and the editor's files: the built editor from dist/ when it exists (hashed assets cached
 * for good, index.html always revalidated, no path outside dist/ ever served), otherwise a small
 * page saying what is running and where.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type ServerConfig } from '../config';
import { BASE_HEADERS, HttpError } from '../http-utils';
import { type RequestContext } from '../router';
import { LANDING_CSP, landingPage } from './landing';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * The editor's Content-Security-Policy. The page shows text from files other people made (titles,
 * notes, prompts); should an escaping slip ever let markup through, nothing in it may run.
 * - Scripts and workers only from the editor's own origin: no inline script, no eval (zod's
 *   compiled parsers are switched off in the page and the worker, `api/zod-jitless.ts`), no blob: workers.
 * - Styles only from its own files: React and React Flow set styles through the CSSOM, which
 *   the policy does not govern, and the build emits no inline style.
 * - Images from itself, and blob: and data: URLs (results are shown from object URLs, the icon
 *   is a data: URL).
 * - connect-src takes any http: and https: origin besides its own: in the "directly from the
 *   browser" setting the page and its worker call base URLs the person typed, kept in the
 *   browser and never known to this server, so it cannot name them here. blob: too, so the
 *   object URLs of results can be read back (they hold nothing from outside the page). ws: and
 *   wss: too, for the same reason: an image backend called from the browser reports its
 *   progress over a WebSocket (ComfyUI's steps), which http: does not cover.
 * Sent with every file of the editor, so its workers (whose policy comes with their script) have it too.
 */
export const EDITOR_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "font-src 'self'",
  "connect-src 'self' blob: http: https: ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite names built assets `name-<hash>.ext`; those never change, so they may be cached for good. */
const HASHED = /[-.][A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Maps a URL path to a file inside `root`, or undefined when it would leave it. */
async function resolveInside(root: string, urlPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    throw new HttpError(400, 'path: is not a valid percent-encoded URL path');
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const parts = decoded.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '..' || p === '.' || p.startsWith('.'))) return undefined;
  const candidate = join(root, ...parts);
  if (!(await isFile(candidate))) return undefined;
  // A symlink inside dist/ must not lead outside it either.
  const [realRoot, realFile] = await Promise.all([realpath(root), realpath(candidate)]);
  return realFile.startsWith(realRoot + sep) ? realFile : undefined;
}

async function sendFile(ctx: RequestContext, path: string, cache: string): Promise<void> {
  const info = await stat(path);
  ctx.res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Security-Policy': EDITOR_CSP,
    'Content-Type': CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': cache,
    'Last-Modified': info.mtime.toUTCString(),
  });
  if (ctx.req.method === 'HEAD') {
    ctx.res.end();
    return;
  }
  await pipeline(createReadStream(path), ctx.res);
}

/**
 * Serves a GET that no API route took: a file from dist/, index.html for the editor's own paths
 * (no extension), the landing page when the editor is not built, or a 404.
 */
export async function serveStatic(ctx: RequestContext, config: ServerConfig): Promise<void> {
  const index = join(config.distDir, 'index.html');
  const built = await isFile(index);
  const path = ctx.url.pathname;
  if (!built) {
    if (path === '/' || path === '/index.html') {
      const html = Buffer.from(landingPage(config, ctx.origin), 'utf8');
      ctx.res.writeHead(200, {
        ...BASE_HEADERS, 'Content-Security-Policy': LANDING_CSP, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': html.length, 'Cache-Control': 'no-store',
      });
      ctx.res.end(ctx.req.method === 'HEAD' ? undefined : html);
      return;
    }
    throw new HttpError(404, `path: nothing at ${path.slice(0, 100)} (the editor is not built; run npm start to build it, or see / for what is running)`);
  }
  if (path === '/' || path === '/index.html') return sendFile(ctx, index, 'no-cache');
  const file = await resolveInside(config.distDir, path);
  if (file !== undefined) {
    const immutable = path.startsWith('/assets/') && HASHED.test(path);
    return sendFile(ctx, file, immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  }
  // The editor's own client-side paths get the editor; a missing file (with an extension) is a 404.
  if (extname(path) === '') return sendFile(ctx, index, 'no-cache');
  throw new HttpError(404, `path: no file ${path.slice(0, 100)} in the built editor`);
}
