/**
 * Redaction of text a server may echo a request into: credential places lose their value
 * whatever it is; a token is replaced anywhere only when it is distinctive, so `text`, `none` or
 * `ollama` as a token does not rewrite every message that holds the word.
 */
import { describe, expect, it } from 'vitest';
import { distinctiveSecrets, isDistinctiveSecret, redact, withoutDistinctiveSecrets } from '../../api/redact';

describe('isDistinctiveSecret', () => {
  it('says no to short values and words, the tokens local servers are given', () => {
    for (const value of ['text', 'none', 'ollama', 'EMPTY', 'lm-studio', 'not-needed', 'sk-no-key-required', 'admin:admin', 'Changeme']) {
      expect(isDistinctiveSecret(value), value).toBe(false);
    }
  });
  it('says yes to keys, random strings, base64 and long passphrases', () => {
    for (const value of ['sk-proj-4f9a8b7c6d5e', 'hunter22', 'YWRtaW46YWRtaW4=', 'Zx81file-token', 'correct horse battery staple']) {
      expect(isDistinctiveSecret(value), value).toBe(true);
    }
    expect(distinctiveSecrets([' text ', ' sk-live-123456 '])).toEqual(['sk-live-123456']);
  });
});

describe('redact', () => {
  it('leaves a short or word-like token where it is only a word', () => {
    const message = 'field text: expected a text value; none given (ollama at /local/text)';
    expect(redact(message, ['text', 'none', 'ollama'])).toBe(message);
  });

  it('takes any value out of an echoed header, in a dump, JSON or a Python dict', () => {
    expect(redact('request headers:\nAuthorization: Bearer ollama\nHost: 127.0.0.1', ['ollama'])).toBe('request headers:\nAuthorization: Bearer [redacted]\nHost: 127.0.0.1');
    expect(redact('{"headers":{"authorization":"Bearer none","x-api-key":"text"}}', [])).toBe('{"headers":{"authorization":"Bearer [redacted]","x-api-key":"[redacted]"}}');
    expect(redact("{'Authorization': 'Basic dXNlcjpwdw=='}", [])).toBe("{'Authorization': 'Basic [redacted]'}");
    expect(redact('echo: {\\"api-key\\":\\"lm-studio\\"}', ['lm-studio'])).toBe('echo: {\\"api-key\\":\\"[redacted]\\"}');
  });

  it('takes the known token out after Bearer however short, and token-like values whatever they are', () => {
    expect(redact('bad token Bearer text', ['text'])).toBe('bad token Bearer [redacted]');
    expect(redact('got Bearer sk-abc, Basic dXNlcjpwYXNz', [])).toBe('got Bearer [redacted], Basic [redacted]');
    // Words after the scheme's name are prose.
    expect(redact('Bearer token required; basic auth is off; basic 512px', [])).toBe('Bearer token required; basic auth is off; basic 512px');
  });

  it('takes passwords and keys out of URLs', () => {
    expect(redact('fetching http://user:pw@host:7860/sdapi', [])).toBe('fetching http://[redacted]@host:7860/sdapi');
    expect(redact('GET https://api.example/v1?api_key=text&x=1', [])).toBe('GET https://api.example/v1?api_key=[redacted]&x=1');
  });

  it('takes a distinctive token out anywhere, URL-encoded too', () => {
    const token = 'sk-proj-Zq81/x+4f9a8b7c6d5e';
    expect(redact(`key ${token} (${encodeURIComponent(token)}) is not valid`, [token])).toBe('key [redacted] ([redacted]) is not valid');
  });
});

describe('withoutDistinctiveSecrets', () => {
  it('replaces only distinctive tokens, with the given mark', () => {
    expect(withoutDistinctiveSecrets('a text about sk-live-123456', ['text', 'sk-live-123456'], '[removed]')).toBe('a text about [removed]');
  });
});
