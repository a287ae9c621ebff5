/** The ComfyUI double's file routes: GET /view and POST /upload/image. */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Upload { name: string; type: string; overwrite: string | null; bytes: Uint8Array }

export const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
};
export const empty = (res: ServerResponse, status: number): void => {
  res.writeHead(status).end();
};

/** GET /view: a file of the output, temp or input folder, with server.py's checks. */
export function view(url: URL, res: ServerResponse, inputs: Map<string, Uint8Array>, outputs: Map<string, Uint8Array>): void {
  const filename = url.searchParams.get('filename');
  if (filename === null) return empty(res, 404);
  if (filename === '' || filename.startsWith('/') || filename.includes('..')) return empty(res, 400);
  const type = url.searchParams.get('type') ?? 'output';
  if (!['output', 'input', 'temp'].includes(type)) return empty(res, 400);
  const subfolder = url.searchParams.get('subfolder') ?? '';
  if (subfolder.includes('..')) return empty(res, 403);
  const name = `${subfolder === '' ? '' : `${subfolder}/`}${filename.split('/').pop() ?? ''}`;
  const bytes = type === 'input' ? inputs.get(name) : outputs.get(`${type}/${name}`);
  if (bytes === undefined) return empty(res, 404);
  res.writeHead(200, { 'Content-Type': name.endsWith('.png') ? 'image/png' : 'application/octet-stream', 'Content-Disposition': `filename="${filename}"` }).end(bytes);
}

/**
 * POST /upload/image (server.py `image_upload`): multipart `image` (a file with a name), `type`,
 * `subfolder`, `overwrite`; a taken name gets " (1)" unless the bytes are the same or overwrite
 * is "true" or "1".
 */
export async function upload(req: IncomingMessage, res: ServerResponse, body: Buffer, inputs: Map<string, Uint8Array>, uploads: Upload[]): Promise<void> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
  } catch {
    return empty(res, 400);
  }
  const image = form.get('image');
  const type = String(form.get('type') ?? 'input');
  if (!(image instanceof Blob) || !('name' in image) || image.name === '') return empty(res, 400);
  // server.py's get_dir_by_type leaves other types unbound: the handler fails.
  if (!['input', 'temp', 'output'].includes(type)) return empty(res, 500);
  const subfolder = String(form.get('subfolder') ?? '');
  const bytes = new Uint8Array(await image.arrayBuffer());
  const overwrite = form.get('overwrite') as string | null;
  let name = String(image.name);
  const key = () => `${subfolder === '' ? '' : `${subfolder}/`}${name}`;
  if (overwrite !== 'true' && overwrite !== '1') {
    const [stem, ext] = [name.replace(/\.[^.]*$/, ''), /\.[^.]*$/.exec(name)?.[0] ?? ''];
    const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    for (let i = 1; type === 'input' && inputs.has(key()) && hash(inputs.get(key()) as Uint8Array) !== hash(bytes); i++) name = `${stem} (${i})${ext}`;
  }
  if (type === 'input') inputs.set(key(), bytes);
  uploads.push({ name, type, overwrite, bytes });
  json(res, 200, { name, subfolder, type });
}
