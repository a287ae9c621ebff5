/** Shared helpers of the Google Gemini backend's tests. */
import { createGoogleBackend } from '../../../api/backends/google';
import type { BackendOptions } from '../../../api/backends/options';
import { optionsOn } from '../../helpers/backend-on-double';
import type { GeminiDouble } from '../../helpers/doubles/gemini';

export { caught } from '../../helpers/caught';
export { imageInfo } from '../../helpers/backend-on-double';

/** A backend on the double, with its key, no retries unless asked, and waits that take no time. */
export function backendOn(double: GeminiDouble, overrides: Partial<BackendOptions> = {}) {
  return createGoogleBackend(optionsOn(double, overrides));
}
