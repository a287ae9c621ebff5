/**
 * The chat models the current endpoint lists (`GET {text}/v1/models`), for the model pickers.
 * Fetched once per endpoint and token and kept; an endpoint that lists none (or refuses) leaves
 * free text. Asked only of a finished base URL: the settings hold a URL once it is entered
 * (CommitInput), and one that does not parse is no endpoint at all (`endpointsFor`).
 */
import { useEffect } from 'react';
import { createSmallStore, useSmallStore } from '../ui/small-store';
import { chatTokenOf, endpointsFor, type Settings } from './settings';
import { settingsStore, useSettings } from './settings-store';

const lists = createSmallStore<ReadonlyMap<string, readonly string[]>>(new Map());
const pending = new Set<string>();

/** One list per endpoint and token: a token entered after a refusal asks again. */
const listKey = (textBaseUrl: string, token: string | undefined) => `${textBaseUrl}\n${token ?? ''}`;

/** Model ids from a `/v1/models` body, or [] when it is not that shape. */
export function parseModelList(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data)) return [];
  return data
    .map((m: unknown) => (typeof m === 'object' && m !== null ? (m as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 200)
    .slice(0, 500);
}

/** Asks the endpoint of these settings for its models (once per endpoint and token per page). */
export async function fetchChatModels(settings: Settings, origin: string): Promise<readonly string[]> {
  const endpoints = endpointsFor(settings, origin);
  const { textBaseUrl } = endpoints;
  const token = chatTokenOf(endpoints);
  if (textBaseUrl === '') return [];
  const key = listKey(textBaseUrl, token);
  const known = lists.get().get(key);
  if (known) return known;
  if (pending.has(key)) return [];
  pending.add(key);
  let models: string[] = [];
  try {
    const response = await fetch(`${textBaseUrl}/v1/models`, {
      headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(8000),
    });
    if (response.ok) models = parseModelList(await response.json());
  } catch {
    // Unreachable, refused by CORS or not JSON: the model stays a free-text field.
  } finally {
    pending.delete(key);
  }
  lists.set((m) => new Map(m).set(key, models));
  return models;
}

/** The models of the current endpoint ([] until known, or when it lists none). */
export function useChatModels(): readonly string[] {
  const settings = useSettings();
  const all = useSmallStore(lists);
  const endpoints = endpointsFor(settings, window.location.origin);
  const { textBaseUrl } = endpoints;
  const token = chatTokenOf(endpoints);
  // Asked again only when the endpoint or its token changes, not at every change of the settings.
  useEffect(() => {
    void fetchChatModels(settingsStore.get(), window.location.origin);
  }, [textBaseUrl, token]);
  return all.get(listKey(textBaseUrl, token)) ?? [];
}
