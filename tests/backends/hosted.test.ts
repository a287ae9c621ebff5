/** What fal and Replicate share: data URIs, progress from logs, quotes, and the word on a browser they refuse. */
import { describe, expect, it } from 'vitest';
import { dataUriBase64, toDataUri } from '../../api/backends/hosted/data-uri';
import { quoteFrom } from '../../api/backends/hosted/price';
import { progressFromLogs } from '../../api/backends/hosted/progress';
import { falDescription } from '../../api/backends/fal/describe';
import { replicateDescription } from '../../api/backends/replicate/describe';
import { corsRefusal } from '../../api/backends/unanswered';
import { FAL_PRICES } from '../../api/backends/fal/prices';
import { REPLICATE_PRICES } from '../../api/backends/replicate/prices';
import { createFalBackend } from '../../api/backends/fal';
import { createReplicateBackend } from '../../api/backends/replicate';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const JPEG = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==';

describe('hosted helpers', () => {
  it('a data URI is the base64 as it came, typed from its first bytes, and read back as it went', () => {
    expect(toDataUri(PNG)).toBe(`data:image/png;base64,${PNG}`);
    expect(toDataUri(JPEG)).toBe(`data:image/jpeg;base64,${JPEG}`);
    expect(dataUriBase64(toDataUri(JPEG))).toBe(JPEG);
    expect(dataUriBase64('https://v3.fal.media/files/x.png')).toBeUndefined();
  });

  it('the step comes from the last progress bar in the logs', () => {
    expect(progressFromLogs(['loading', ' 40%|████      | 10/25 [00:01<00:01, 11.2it/s]', ' 52%|█████▏    | 13/25 [00:01<00:01, 11.2it/s]'])).toEqual({ fraction: 13 / 25, message: 'step 13 of 25' });
    expect(progressFromLogs(['Using seed: 42', 'Prompt: a/b [x]'])).toBeUndefined();
  });

  it('a quote by the megapixel rounds each image up to whole megapixels; no entry is "unknown" with why', () => {
    const entry = { usd: 0.025, per: 'megapixel' as const, source: 'https://fal.ai/pricing', date: '2026-05-25' };
    expect(quoteFrom(entry, 3, 512, 512, 'x')).toMatchObject({ known: true, totalUsd: 0.075 });
    expect(quoteFrom(entry, 1, 2048, 1024, 'x')).toMatchObject({ known: true, totalUsd: 0.075 });
    expect(quoteFrom(undefined, 1, 1024, 1024, 'billed by GPU time')).toEqual({ known: false, why: 'billed by GPU time' });
  });

  it('a browser refused by fal or Replicate is pointed to the server\'s route, not to a flag', () => {
    expect(corsRefusal(falDescription, 'fal', 'https://queue.fal.run', 'http://127.0.0.1:8787')).toBe('fal at https://queue.fal.run does not take requests from this page (CORS): use the route through this server (Settings)');
    expect(corsRefusal(replicateDescription, 'Replicate', 'https://api.replicate.com', undefined)).not.toMatch(/start it with/);
  });

  it('every price in the tables says the page it was read on and the day; a model not in them is "price unknown" with why', () => {
    for (const [model, entry] of [...FAL_PRICES, ...REPLICATE_PRICES]) {
      expect(entry.source, model).toMatch(/^https:\/\/(fal\.ai|replicate\.com)\//);
      expect(entry.date, model).toMatch(/^20\d\d-\d\d-\d\d$/);
      expect(Number.isNaN(Date.parse(entry.date)), model).toBe(false);
      expect(entry.usd, model).toBeGreaterThan(0);
    }
    const fal = createFalBackend({ baseUrl: 'https://queue.fal.run', names: { model: 'fal-ai/fast-sdxl' } });
    expect(fal.price('sdxl', { prompt: 'p' })).toEqual({ known: false, why: expect.stringMatching(/^fal publishes no fixed price for fal-ai\/fast-sdxl/) });
    expect(fal.price('sdxl', { prompt: 'p', init_image: PNG })).toMatchObject({ known: false });
    const replicate = createReplicateBackend({ baseUrl: 'https://api.replicate.com', names: { model: 'someone/new-model' } });
    // By name, its billing is not known (per output or per second): said, not guessed.
    expect(replicate.price('sdxl', { prompt: 'p' })).toEqual({ known: false, why: "Atelier's table has no price for someone/new-model: Replicate bills an official model per output and others by GPU time (see https://replicate.com/someone/new-model)" });
    const community = createReplicateBackend({ baseUrl: 'https://api.replicate.com' });
    expect(community.price('sdxl', { prompt: 'p' })).toEqual({ known: false, why: expect.stringMatching(/^Replicate bills stability-ai\/sdxl by the second of GPU time/) });
  });
});
