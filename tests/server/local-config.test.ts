/** The config of the local engines started inside the CLI, tests and benches: nothing read from the person's settings. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localEnginesConfig } from '../../server/config';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('localEnginesConfig', () => {
  it('is loopback on a free port with no delay, token, forwarder or extra origin, whatever the environment says', () => {
    vi.stubEnv('HOST', '0.0.0.0');
    vi.stubEnv('PORT', '8787');
    vi.stubEnv('ATELIER_TOKEN', 'sk-upstream-secret');
    vi.stubEnv('ATELIER_IMAGE_BASE_URL', 'https://images.example.com');
    vi.stubEnv('ATELIER_LOCAL_TOKEN', 'local-secret');
    vi.stubEnv('ATELIER_ALLOWED_ORIGINS', 'https://evil.example.com');
    const config = localEnginesConfig();
    expect(config).toMatchObject({
      host: '127.0.0.1', port: 0, stepDelayMs: 0, tokenDelayMs: 0, localToken: undefined,
      forwarder: { imageBaseUrl: undefined, textBaseUrl: undefined, token: undefined, imageBackends: {}, backendToken: undefined }, allowedOrigins: [],
    });
    expect(JSON.stringify(config)).not.toMatch(/secret|example\.com/);
  });

  it('takes overrides for what a caller needs to differ', () => {
    expect(localEnginesConfig({ stepDelayMs: 40, version: 'cli' })).toMatchObject({ stepDelayMs: 40, tokenDelayMs: 0, version: 'cli' });
  });
});
