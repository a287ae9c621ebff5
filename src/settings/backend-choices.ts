/**
 * The Settings dialog's backend choices, from the registry's descriptions: the service's API
 * (named for the route chosen above) first, then every backend by its label.
 */
import type { BackendEntry } from '../../api/backends/describe';
import type { EndpointMode } from './settings';

/** What "the service's API" means on each route. */
const SERVICE_OPTION: Record<EndpointMode, string> = {
  local: 'The local engines (the route above)',
  forward: "The service's API",
  direct: "The service's API (the Image API base URL above)",
};

/** One option of the backend select. */
export interface BackendChoice {
  kind: string;
  label: string;
}

/** The choices `entries` offer on the route `mode`. */
export function backendChoicesFor(entries: readonly BackendEntry[], mode: EndpointMode): BackendChoice[] {
  return entries.map(({ description: { kind, label } }) => ({ kind, label: kind === 'service' ? SERVICE_OPTION[mode] : label }));
}

/** A description's words with `code` in backticks, as parts: text, and code to show as code. */
export function codeParts(text: string): { code: boolean; text: string }[] {
  return text.split('`').map((part, i) => ({ code: i % 2 === 1, text: part })).filter((part) => part.text !== '');
}
