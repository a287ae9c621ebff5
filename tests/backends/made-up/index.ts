/** The made-up backend's code: it only records what it was built with and reviews nothing away. */
import type { BackendOptions } from '../../../api/backends/options';
import type { ImageBackend } from '../../../api/backends/types';
import { madeUpDescription } from './describe';

/** Every options object the factory was called with, for the test to look at. */
export const built: BackendOptions[] = [];

export function createMadeUpBackend(options: BackendOptions): ImageBackend {
  built.push(options);
  return {
    // The kind union is the real registry's; this backend lives in a test's own list.
    kind: madeUpDescription.kind as ImageBackend['kind'],
    label: madeUpDescription.label,
    review: () => ({ backend: madeUpDescription.kind as ImageBackend['kind'], label: madeUpDescription.label, refusals: [], notes: [], translated: {} }),
    generate: () => Promise.reject(new Error('the made-up backend sends nothing')),
    price: () => ({ known: true, amountUsd: 0.003, per: 'image', source: 'https://made-up.invalid/pricing', date: '2026-11-01' }),
  };
}
