/** What the settings dialog shows under a base URL field: nothing while empty or fine, else what is wrong. */
import { checkBaseUrl } from './base-url';

export function urlError(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const check = checkBaseUrl(value);
  return check.ok ? undefined : `This URL ${check.reason}`;
}
