/**
 * The request log: method, path, status and duration, with queries dropped and anything that may
 * be a credential replaced, whether or not the server knows it as a secret.
 */
import { describe, expect, it } from 'vitest';
import { createLogger, loggablePath, redact } from '../../server/log';

describe('loggablePath', () => {
  it('keeps ordinary paths and built asset names', () => {
    expect(loggablePath('/local/image/generate/controlnet-sdxl', [])).toBe('/local/image/generate/controlnet-sdxl');
    expect(loggablePath('/assets/index-Bq3xY7kP.js', [])).toBe('/assets/index-Bq3xY7kP.js');
  });
  it('drops the query and fragment, marking that there was one', () => {
    expect(loggablePath('/api/info?token=abc123', [])).toBe('/api/info?…');
    expect(loggablePath('/x#frag', [])).toBe('/x?…');
  });
  it('replaces known secrets and token-like segments, even percent-encoded', () => {
    expect(loggablePath('/a/short-s3cret/b', ['short-s3cret'])).toBe('/a/[redacted]/b');
    expect(loggablePath('/forward/sk-live-4f9a8b7c6d5e', [])).toBe('/forward/[redacted]');
    expect(loggablePath('/x/%73k-live-4f9a8b7c6d5e', [])).toBe('/x/[redacted]');
  });
  it('leaves a short or word-like server token in the paths it happens to spell', () => {
    // ATELIER_LOCAL_TOKEN=text must not turn every /local/text request into /local/[redacted].
    expect(loggablePath('/local/text/v1/chat/completions', ['text', 'lm-studio'])).toBe('/local/text/v1/chat/completions');
  });
  it('drops control characters so a path cannot forge log lines', () => {
    expect(loggablePath('/a%0aGET /fake 200', [])).toBe('/a%0aGET/fake200');
    expect(loggablePath('/a\nb', [])).toBe('/ab');
  });
});

describe('redact', () => {
  it('replaces every occurrence of a secret and any Bearer credential', () => {
    expect(redact('x=s3cret-42 y=s3cret-42', ['s3cret-42'])).toBe('x=[redacted] y=[redacted]');
    expect(redact('Authorization: Bearer abcdefgh12345', [])).toBe('Authorization: Bearer [redacted]');
    expect(redact('any Bearer token or none', [])).toBe('any Bearer token or none');
  });
  it('takes a short server token out of an echoed header, and nowhere else', () => {
    expect(redact('/local/text refused Authorization: Bearer text', ['text'])).toBe('/local/text refused Authorization: Bearer [redacted]');
  });
});

describe('createLogger', () => {
  it('writes one request line and redacts error details', () => {
    const out: string[] = [];
    const err: string[] = [];
    const log = createLogger(['tok-1234567'], { out: (l) => out.push(l), err: (l) => err.push(l) });
    log.request({ method: 'POST', target: '/local/text/v1/chat/completions?k=tok-1234567', status: 200, durationMs: 12.345, aborted: false });
    log.request({ method: 'GET', target: '/local/text/v1/models', status: 200, durationMs: 3, aborted: true });
    log.error('boom', new Error('failed with tok-1234567'));
    expect(out).toEqual(['POST /local/text/v1/chat/completions?… 200 12.3ms', 'GET /local/text/v1/models 200 3.0ms (client went away)']);
    expect(err.join('\n')).toContain('error: boom\nError: failed with [redacted]');
    expect(err.join('\n')).not.toContain('tok-1234567');
  });
});
