/**
 * The service's own API as a backend: the request goes to `POST {baseUrl}/generate/{engine}`
 * exactly as the workflow made it (the local engines, or any server speaking the contract), so
 * nothing is translated, approximated or refused here; the service is the judge.
 */
import { createImageClient } from '../../image-client';
import type { BackendOptions } from '../options';
import type { ImageBackend } from '../types';
import { serviceDescription } from './describe';

export function createServiceBackend(options: BackendOptions): ImageBackend {
  const client = createImageClient(options);
  return {
    kind: 'service',
    label: serviceDescription.label,
    // Nothing changes on the way: the record of what was sent is the request itself, kept by the executor.
    review: () => ({ backend: 'service', label: serviceDescription.label, refusals: [], notes: [], translated: 'sent as it is' }),
    generate: (engine, request, options) => client.generate(engine, request, options),
  };
}
