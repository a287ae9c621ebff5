/**
 * A pool the local server holds: a browser on the route "through this server" hears how the
 * pool's servers stand in the progress lines (labels and counts, never an address), the answer
 * names the server that made it, and /api/info says how many servers share the work.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServersReport } from '../../api/client-types';
import { createImageClient } from '../../api/image-client';
import { startComfyDouble, type ComfyDouble } from '../helpers/doubles/comfyui';
import { startServer, type ServerProcess } from '../helpers/server-process';

let doubles: ComfyDouble[] = [];
let server: ServerProcess;
const dir = mkdtempSync(join(tmpdir(), 'atelier-pool-'));

beforeAll(async () => {
  doubles = [await startComfyDouble(), await startComfyDouble()];
  const file = join(dir, 'config.json');
  const baseUrls = [{ label: 'desk', url: doubles[0]!.url }, { label: 'box', url: doubles[1]!.url }];
  writeFileSync(file, JSON.stringify({ imageBackends: { sdxl: { kind: 'comfyui', baseUrl: doubles[0]!.url, baseUrls, names: { checkpoint: 'sd_xl_base_1.0.safetensors' } } } }));
  chmodSync(file, 0o600);
  server = await startServer({ ATELIER_CONFIG: file });
});
afterAll(async () => {
  await server.stop();
  for (const d of doubles) await d.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a pool behind the local server', () => {
  it('reports its servers by label in the progress lines, and the answer names the server', async () => {
    const client = createImageClient({ baseUrl: `${server.url}/forward/image`, retry: { maxAttempts: 1 } });
    const reports: ServersReport[] = [];
    const stop = client.watchServers!((r) => reports.push(r));
    const response = await client.generate('sdxl', { prompt: 'a harbour at dawn', seed: 5 }, { onProgress: () => undefined });
    stop();
    expect(response.images).toHaveLength(1);
    expect(['desk', 'box']).toContain((response as { server?: unknown }).server);
    expect(reports.length).toBeGreaterThan(0);
    expect(reports[0]).toMatchObject({ pool: 'ComfyUI', engines: expect.arrayContaining(['sdxl']) });
    expect(reports[0]!.servers.map((s) => s.label)).toEqual(['desk', 'box']);
    // Busy on the way, and one image made by the end.
    expect(reports.some((r) => r.servers.some((s) => s.inFlight > 0))).toBe(true);
    expect(reports.at(-1)!.servers.reduce((n, s) => n + s.made, 0)).toBe(1);
    const text = JSON.stringify(reports);
    for (const d of doubles) expect(text).not.toContain(new URL(d.url).host);
  });

  it('says in /api/info how many servers share an engine, and nothing of where they are', async () => {
    const info = await (await fetch(`${server.url}/api/info`)).json() as { forwarder: { imageBackends: Record<string, { servers?: { label: string }[] }> } };
    expect(info.forwarder.imageBackends.sdxl?.servers?.map((s) => s.label)).toEqual(['desk', 'box']);
    for (const d of doubles) expect(JSON.stringify(info)).not.toContain(new URL(d.url).host);
  });
});
