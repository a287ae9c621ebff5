/**
 * What a backend has (checkpoints, ControlNets, LoRAs, models), for the backend settings'
 * suggestions: asked through the run worker, which holds the backends' code, of the base URL and
 * with the credential the settings hold, both taken only once entered (CommitInput), so a
 * credential never goes to a half-typed address. Asked when the person turns to the names (a
 * name field gets the focus, or the button), never just because a backend was chosen: choosing
 * OpenAI Images must not send anything to api.openai.com by itself. One answer per backend, URL and
 * credential for the page's life; the button asks again.
 */
import { useCallback } from 'react';
import type { BackendNames } from '../../api/backends/types';
import type { RemoteKind } from './backend-settings';
import { useRunContext } from '../run/context';
import { createSmallStore, useSmallStore } from '../ui/small-store';

export type NamesState =
  | { status: 'asking' }
  | { status: 'known'; names: BackendNames }
  | { status: 'failed'; reason: string };

const answers = createSmallStore<ReadonlyMap<string, NamesState>>(new Map());

const keyOf = (kind: RemoteKind, url: string, credential: string) => JSON.stringify([kind, url, credential]);

export interface BackendNamesView {
  state: NamesState | undefined;
  /** Asks unless an answer is known or on its way; `again` asks anyway. */
  ask(again?: boolean): void;
}

/** The names of the backend `kind` at `url` (undefined: no usable URL, nothing is asked). */
export function useBackendNames(kind: RemoteKind, url: string | undefined, credential: string): BackendNamesView {
  const { controller } = useRunContext();
  const all = useSmallStore(answers);
  const key = url === undefined ? undefined : keyOf(kind, url, credential);
  const ask = useCallback((again = false) => {
    if (url === undefined || key === undefined) return;
    const known = answers.get().get(key);
    if (known?.status === 'asking' || (known !== undefined && !again)) return;
    const set = (state: NamesState) => answers.set((m) => new Map(m).set(key, state));
    set({ status: 'asking' });
    controller.listBackendNames({ kind, baseUrl: url }, credential === '' ? undefined : credential).then(
      (answer) => set(answer.ok ? { status: 'known', names: answer.names } : { status: 'failed', reason: answer.reason }),
      (error: unknown) => set({ status: 'failed', reason: error instanceof Error ? error.message : String(error) }),
    );
  }, [controller, kind, url, credential, key]);
  return { state: key === undefined ? undefined : all.get(key), ask };
}

const LISTS: [keyof BackendNames, string, string][] = [
  ['checkpoints', 'checkpoint', 'checkpoints'],
  ['controlnets', 'ControlNet', 'ControlNets'],
  ['loras', 'LoRA', 'LoRAs'],
  ['embeddings', 'embedding', 'embeddings'],
  ['vaes', 'VAE', 'VAEs'],
  ['models', 'model', 'models'],
];

/** "3 checkpoints, 2 ControlNets, 1 LoRA": what a backend listed, in a line. */
export function describeNames(names: BackendNames): string {
  const parts = LISTS.flatMap(([key, one, many]) => {
    const list = names[key];
    return list === undefined ? [] : [`${list.length} ${list.length === 1 ? one : many}`];
  });
  return parts.length === 0 ? 'no lists' : parts.join(', ');
}
