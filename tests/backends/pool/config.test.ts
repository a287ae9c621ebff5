import { describe, expect, it } from 'vitest';
import { backendsScope, BackendConfigSchema, createBackend } from '../../../api/backends/index';

const servers = [{ url: 'http://127.0.0.1:8188', label: 'desk' }, { url: 'http://127.0.0.1:8189', label: 'box' }];

describe('a pool in the backend settings', () => {
  it('takes a list of servers for ComfyUI and AUTOMATIC1111 only, each with its own label', () => {
    expect(BackendConfigSchema.safeParse({ kind: 'comfyui', baseUrl: servers[0]!.url, baseUrls: servers }).success).toBe(true);
    expect(BackendConfigSchema.safeParse({ kind: 'a1111', baseUrl: servers[0]!.url, baseUrls: servers }).success).toBe(true);
    const openai = BackendConfigSchema.safeParse({ kind: 'openai', baseUrl: servers[0]!.url, baseUrls: servers });
    expect(openai.error?.issues[0]?.message).toBe('OpenAI Images takes one base URL, not a list of servers');
    const twice = BackendConfigSchema.safeParse({ kind: 'comfyui', baseUrl: servers[0]!.url, baseUrls: [servers[0], { ...servers[1], label: 'desk' }] });
    expect(twice.error?.issues[0]).toMatchObject({ path: ['baseUrls', 1, 'label'], message: "'desk' names two servers: each needs its own label" });
  });

  it('builds a pool for two servers and the plain backend for one', async () => {
    const pool = await createBackend({ config: { kind: 'comfyui', baseUrl: servers[0]!.url, baseUrls: servers } });
    expect((pool as { size?: number }).size).toBe(2);
    const one = await createBackend({ config: { kind: 'comfyui', baseUrl: servers[0]!.url, baseUrls: [servers[0]!] } });
    expect((one as { size?: number }).size).toBeUndefined();
  });

  it('keeps the cache key blind to which servers a pool has', () => {
    const a = backendsScope({ sdxl: { kind: 'comfyui', baseUrl: servers[0]!.url, baseUrls: servers } });
    const b = backendsScope({ sdxl: { kind: 'comfyui', baseUrl: servers[1]!.url, baseUrls: [...servers, { url: 'http://10.0.0.2:8188', label: 'rented' }] } });
    expect(a).toBe(b);
  });
});
