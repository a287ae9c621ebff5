/**
 * A backend that exists only in the tests, written as a real one is: a description here, its
 * factory in index.ts, one registry line (in the test's own list). Hosted, so it takes a required
 * key, a model per engine, and cannot be called from a browser.
 */
import { describeBackend } from '../../../api/backends/describe';

export const madeUpDescription = describeBackend({
  kind: 'made-up',
  label: 'Made-up Cloud',
  summary: 'a hosted image API that exists only in the tests',
  defaultBaseUrl: 'https://images.made-up.invalid',
  credential: { label: 'API key', help: 'From the made-up dashboard. Sent as Authorization: Key to this base URL only.', required: true },
  names: [
    { key: 'model', label: 'Model', perEngine: true, need: 'recommended', defaults: { sdxl: 'made-up/sdxl-turbo' }, suggestFrom: ['models'] },
  ],
  browser: { direct: false, why: 'it sends no CORS headers' },
  pool: false,
});
