/** What a person reads when the Gemini API says no, and what is (not) retried. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BILLING_NOT_ENABLED, rateLimited, status } from '../../helpers/doubles/gemini-rules';
import { startGeminiDouble, type GeminiDouble } from '../../helpers/doubles/gemini';
import { closedPort } from '../../helpers/closed-port';
import { backendOn, caught } from './helpers';

let double: GeminiDouble;
beforeEach(async () => { double = await startGeminiDouble(); });
afterEach(async () => { await double.close(); });

const retrying = { retry: { maxAttempts: 3, sleep: () => Promise.resolve() } };

describe('Google Gemini backend: keys, billing, quota', () => {
  it('says a missing key and a wrong key apart, never retries them, and never shows the key', async () => {
    const none = await caught(backendOn(double, { token: '', ...retrying }).generate('sdxl', { prompt: 'p' }));
    expect(none.detail).toMatch(/^Google Gemini API needs an API key and none was sent: set this backend's credential/);
    expect(none.attempts).toBe(1);
    const wrong = await caught(backendOn(double, { token: 'AIzaSy-wrong-key-123456', ...retrying }).generate('sdxl', { prompt: 'p' }));
    expect(wrong.detail).toMatch(/^Google Gemini API refused the API key \(HTTP 400 API_KEY_INVALID\): check this backend's credential/);
    expect(wrong.attempts).toBe(1);
    expect(`${wrong.message} ${wrong.detail}`).not.toContain('AIzaSy-wrong-key-123456');
    expect(double.received).toHaveLength(2);
  });

  it('says an expired key and a key Google blocked as leaked, and retries neither', async () => {
    double.failNext(
      { status: 400, body: status(400, 'INVALID_ARGUMENT', 'API key expired. Please renew the API key.').body },
      { status: 403, body: status(403, 'PERMISSION_DENIED', 'Your API key was reported as leaked. Please use another API key.').body },
    );
    const expired = await caught(backendOn(double, retrying).generate('sdxl', { prompt: 'p' }));
    expect(expired.detail).toMatch(/^Google Gemini API refused the API key \(HTTP 400 INVALID_ARGUMENT\)/);
    const leaked = await caught(backendOn(double, retrying).generate('sdxl', { prompt: 'p' }));
    expect(leaked.detail).toMatch(/^Google Gemini API: Google has blocked this API key because it was reported as leaked; make a new key/);
    expect([expired.attempts, leaked.attempts]).toEqual([1, 1]);
  });

  it('waits what RetryInfo asks on a per-minute limit, then succeeds', async () => {
    const waits: number[] = [];
    double.failNext({ status: 429, body: rateLimited(7).body });
    const backend = backendOn(double, { retry: { maxAttempts: 2, sleep: (ms) => { waits.push(ms); return Promise.resolve(); } } });
    const response = await backend.generate('sdxl', { prompt: 'p' });
    expect(response.images).toHaveLength(1);
    expect(waits).toEqual([7000]);
  });

  it('does not retry a daily quota, a quota of zero, or billing not enabled, and says what to do', async () => {
    double.failNext({ status: 429, body: rateLimited(30, 'gemini-2.5-flash-image', 'GenerateRequestsPerDayPerProjectPerModel-FreeTier', '100').body });
    const daily = await caught(backendOn(double, retrying).generate('sdxl', { prompt: 'p' }));
    expect([daily.attempts, daily.retryable]).toEqual([1, false]);
    expect(daily.detail).toMatch(/used its daily quota \(GenerateRequestsPerDayPerProjectPerModel-FreeTier\); waiting minutes will not help/);
    double.failNext({ status: 429, body: rateLimited(30, 'gemini-3-pro-image-preview', 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier', '0').body });
    const zero = await caught(backendOn(double, retrying).generate('sdxl', { prompt: 'p' }));
    expect(zero.detail).toMatch(/no quota at all for this model .*Enable billing/);
    double.failNext({ status: 400, body: BILLING_NOT_ENABLED.body });
    const billing = await caught(backendOn(double, retrying).generate('sdxl', { prompt: 'p' }));
    expect(billing.detail).toMatch(/^Google Gemini API will not serve this key as it is \(FAILED_PRECONDITION\): most often billing is not enabled/);
    expect(billing.attempts).toBe(1);
  });
});

describe('Google Gemini backend: models and refusals', () => {
  it('names an unknown model and lists the image models the key can use', async () => {
    const error = await caught(backendOn(double, { names: { model: 'gemini-9-flash-image' } }).generate('sdxl', { prompt: 'p' }));
    expect(error.status).toBe(404);
    expect(error.detail).toBe("Google Gemini API has no model 'gemini-9-flash-image' (the backend's model setting), or not for generateContent. Its image models: gemini-2.5-flash-image, gemini-3-pro-image-preview, gemini-3.1-flash-image-preview. It said: models/gemini-9-flash-image is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.");
  });

  it('never keeps a safety answer as a picture: a blocked prompt, IMAGE_SAFETY, a candidate with no image', async () => {
    double.failNext(
      { status: 200, body: { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } } },
      { status: 200, body: { candidates: [{ finishReason: 'IMAGE_SAFETY', index: 0, content: { parts: [{ text: 'I cannot make that image.' }], role: 'model' } }] } },
      { status: 200, body: { candidates: [{ finishReason: 'STOP', content: { parts: [{ text: 'Here is a description instead.' }], role: 'model' } }] } },
      { status: 200, body: { candidates: [{ finishReason: 'NO_IMAGE', index: 0 }] } },
    );
    const backend = backendOn(double, retrying);
    const blocked = await caught(backend.generate('sdxl', { prompt: 'p' }));
    expect(blocked.detail).toMatch(/^Google Gemini API's safety filter blocked the prompt before drawing \(promptFeedback\.blockReason PROHIBITED_CONTENT\)/);
    const unsafe = await caught(backend.generate('sdxl', { prompt: 'p' }));
    expect(unsafe.detail).toMatch(/stopped the picture \(finishReason IMAGE_SAFETY\); no image was kept\..* It said: I cannot make that image\./);
    const words = await caught(backend.generate('sdxl', { prompt: 'p' }));
    expect(words.detail).toBe('Google Gemini API answered without an image (finishReason STOP). It said: Here is a description instead.');
    const none = await caught(backend.generate('sdxl', { prompt: 'p' }));
    expect(none.detail).toBe('Google Gemini API answered without an image (finishReason NO_IMAGE).');
    for (const e of [blocked, unsafe, words, none]) expect([e.attempts, e.retryable]).toEqual([1, false]);
    expect(double.received).toHaveLength(4);
  });

  it('says a field the API refused, with its words, and does not retry it', async () => {
    double.failNext({ status: 400, body: status(400, 'INVALID_ARGUMENT', 'Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting').body });
    const error = await caught(backendOn(double, retrying).generate('sdxl', { prompt: 'p' }));
    expect(error.detail).toBe('Google Gemini API refused the request (HTTP 400 INVALID_ARGUMENT). It said: Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting');
    expect(error.attempts).toBe(1);
  });
});

describe('Google Gemini backend: no answer', () => {
  it('says the connection was refused, with the base URL to check', async () => {
    const error = await caught(backendOn(double, { baseUrl: `http://127.0.0.1:${await closedPort()}` }).generate('sdxl', { prompt: 'p' }));
    expect(error.kind).toBe('network');
    expect(error.detail).toBe("could not reach Google Gemini API: the connection was refused. Check the network and the backend's base URL (https://generativelanguage.googleapis.com)");
  });
});
