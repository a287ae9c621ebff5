/** The credential detector: shapes of real secrets match, prose and ordinary params do not. */
import { describe, expect, it } from 'vitest';
import { findCredentialLike, isCredentialKey, isEndpointKey } from '../../workflow/credentials';
import { scanForCredentials } from '../../workflow/scrub';
import { createWorkflow } from '../../workflow/create';

describe('findCredentialLike', () => {
  it.each([
    ['Bearer eyJhbGciOi0123456789abcdef', 'a bearer token'],
    ['Authorization: bearer abc123def456ghi789', 'a bearer token'],
    ['sk-proj-0123456789abcdefABCDEF', 'an API key (sk-…)'],
    ['my key is sk-ant-api03-abcdefghij0123456789 ok', 'an API key (sk-…)'],
    ['sk_live_0123456789abcdefgh', 'a Stripe-style key'],
    ['ghp_0123456789abcdefghij0123456789abcdef', 'a GitHub token'],
    ['github_pat_11ABCDEFG0123456789_abcdefghijklmnop', 'a GitHub token'],
    ['xoxb-1234567890-abcdefghij', 'a Slack token'],
    ['hf_abcdefghijklmnopqrstuvwxyz0123456789', 'a Hugging Face token'],
    ['r8_abcdefghijklmnopqrstuvwxyz0123456789', 'a Replicate token'],
    ['AIzaSyA0123456789abcdefghijklmnopqrstuv', 'a Google API key'],
    ['AKIAIOSFODNN7EXAMPLE', 'an AWS access key'],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'a JSON Web Token'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIE...', 'a private key'],
    ['https://user:hunter2@example.com/v1', 'a URL with a password in it'],
    ['https://api.example.com/v1?api_key=0123456789abcdef', 'a URL with a key in its query'],
  ])('finds %s', (text, kind) => {
    const found = findCredentialLike(text);
    expect(found?.kind).toBe(kind);
    expect(found!.end).toBeGreaterThan(found!.start);
  });

  it.each([
    'a token of friendship on a wooden table',
    'Tokens: 77 for SDXL; max_tokens 200; the secret garden, password-protected diary',
    'The ring bearer walked down the aisle, holding supercalifragilisticexpialidocious',
    'sk-8 park at night, skater silhouette',
    'svc:canny_sdxl',
    'DPM_PLUS_PLUS_2M_KARRAS',
    'https://example.com/image.png',
    'a portrait, (masterpiece:1.2), ((detailed eyes)), 8k uhd',
  ])('leaves prose and ordinary values alone: %s', (text) => {
    expect(findCredentialLike(text)).toBeUndefined();
  });

  it('does not scan base64 image payloads, which contain random letter runs', () => {
    // An AWS-key-like run inside base64 data is noise, not a credential.
    const payload = `${'QUJD'.repeat(200)}/AKIAIOSFODNN7EXAMPLE+${'QUJD'.repeat(200)}==`;
    expect(findCredentialLike(payload)).toBeUndefined();
    expect(findCredentialLike(`data:image/png;base64,${payload}`)).toBeUndefined();
    expect(findCredentialLike(`see ${payload.slice(0, 100)} AKIAIOSFODNN7EXAMPLE`)).toBeDefined();
  });

  it('reports where the credential is, so a UI can highlight it', () => {
    const text = 'prefix Bearer abcdef0123456789xyz suffix';
    const found = findCredentialLike(text)!;
    expect(text.slice(found.start, found.end)).toBe('Bearer abcdef0123456789xyz');
  });
});

describe('isCredentialKey', () => {
  it.each([
    'token', 'access_token', 'accessToken', 'ACCESS_TOKEN', 'refresh-token', 'HF_TOKEN', 'authToken', 'x-auth-token',
    'apiKey', 'api_key', 'API_KEY', 'APIKey', 'x-api-key', 'apikey', 'openai_api_key', 'api_key_id',
    'Authorization', 'authorization', 'proxy-authorization', 'auth', 'basic_auth',
    'password', 'db_password', 'passwd', 'secret', 'client_secret', 'clientSecret', 'aws_secret_access_key',
    'private_key', 'credentials', 'bearer', 'cookie', 'session',
  ])('%s names a credential', (key) => {
    expect(isCredentialKey(key)).toBe(true);
  });

  it.each([
    'max_tokens', 'prompt_tokens', 'total_tokens', 'tokenizer', 'token_limit', 'prompt', 'negative_prompt', 'seed',
    'steps', 'cfg_scale', 'checkpoint', 'loras', 'key', 'keyword', 'svc:detail_tweaker', 'ring_bearer',
    'fortune_cookie', 'author', 'oauth_note', 'secretary', 'passage',
  ])('%s does not', (key) => {
    expect(isCredentialKey(key)).toBe(false);
  });
});

describe('isEndpointKey', () => {
  it.each(['url', 'URL', 'baseUrl', 'base_url', 'BASE_URL', 'baseURL', 'apiBase', 'api_base', 'endpoint', 'image_endpoint',
    'host', 'hostname', 'webhook_url', 'proxy', 'origin', 'server', 'uri'])('%s names an endpoint', (key) => {
    expect(isEndpointKey(key)).toBe(true);
  });

  it.each(['url_style', 'prompt', 'engine', 'model', 'ghost', 'yuri', 'curl', 'proxy_note', 'hosting_style', 'server_name'])(
    '%s does not', (key) => {
      expect(isEndpointKey(key)).toBe(false);
    },
  );
});

describe('scanForCredentials (before export)', () => {
  it('reports credentials in prose as well as fields, and changes nothing', () => {
    const workflow = createWorkflow({ title: 'Scan me' }, () => new Date('2026-01-01T00:00:00Z'));
    workflow.nodes.push({
      id: 'n1', type: 'text', position: { x: 0, y: 0 },
      params: { text: 'use sk-abcdefghij0123456789xyz here', api_key: 'abc', seed: 3, undefinedParam: undefined },
    });
    const before = structuredClone(workflow);
    const findings = scanForCredentials(workflow);
    expect(findings).toEqual([
      { path: 'nodes[0].params.text', message: 'holds what looks like an API key (sk-…)', freeText: true, nodeId: 'n1' },
      { path: 'nodes[0].params.api_key', message: "the key 'api_key' names a credential", freeText: false, nodeId: 'n1' },
    ]);
    expect(workflow).toEqual(before);
  });

  it('finds nothing in a clean workflow', () => {
    expect(scanForCredentials(createWorkflow({ title: 'a token of thanks' }))).toEqual([]);
  });
});
