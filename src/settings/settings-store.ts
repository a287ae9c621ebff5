/**
 * The live settings: one small store shared by the settings dialog and the run side, written
 * through to storage on every change. `useSettings()` re-renders on change.
 *
 * The image backends' rules (backend-settings.ts) are loaded only when needed: at start when this
 * browser holds backend settings, else once the dialog sets one. Until they have read what is
 * stored, a run is refused (settingsProblems) rather than sent where the backends do not say.
 */
import { useSyncExternalStore } from 'react';
import { NO_IMAGE_BACKENDS, backendsStored, type BackendRules, type RulesPending } from './backend-types';
import { DEFAULT_SETTINGS, loadSettings, saveSettings, type Settings, type SettingsStorage } from './settings';

export interface SettingsStore {
  get(): Settings;
  update(change: Partial<Settings>): void;
  subscribe(listener: () => void): () => void;
  /**
   * The image backends' rules once loaded; 'loading' while they are on their way (what is stored
   * is not read yet), 'failed' when they could not be loaded; undefined while no backend is set
   * or stored. Until they are loaded, a run is refused.
   */
  backendRules(): BackendRules | RulesPending | undefined;
}

export type LoadBackendRules = () => Promise<BackendRules>;

const loadRules: LoadBackendRules = () => import('./backend-settings').then((m) => m.backendRules);

export function createSettingsStore(storage: SettingsStorage | null, load: LoadBackendRules = loadRules): SettingsStore {
  let current = storage ? loadSettings(storage) : DEFAULT_SETTINGS;
  let rules: BackendRules | undefined;
  let pending: RulesPending | undefined;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };

  const withRules = () => {
    if (pending !== undefined) return;
    pending = 'loading';
    load().then((loaded) => {
      rules = loaded;
      if (storage) {
        // What is stored is read unless the person has set backends meanwhile; then theirs is written.
        const untouched = current.imageBackends === NO_IMAGE_BACKENDS && Object.keys(current.backendCredentials).length === 0;
        if (untouched) current = { ...current, ...loaded.read(storage, current.rememberTokens) };
        else saveSettings(current, storage, loaded);
      }
      notify();
    }, (error: unknown) => {
      pending = 'failed';
      console.error('the image backend settings could not be loaded', error);
      notify();
    });
  };
  if (storage && backendsStored(storage)) withRules();

  return {
    get: () => current,
    update(change) {
      current = { ...current, ...change };
      if (storage) saveSettings(current, storage, rules);
      if (rules === undefined && ('imageBackends' in change || 'backendCredentials' in change)) withRules();
      notify();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    backendRules: () => rules ?? pending,
  };
}

function browserStorage(): SettingsStorage | null {
  try {
    return typeof window === 'undefined' ? null : { local: window.localStorage, session: window.sessionStorage };
  } catch {
    // Storage can be refused (privacy modes): the settings then last for the page only.
    return null;
  }
}

/** The settings of this browser. */
export const settingsStore: SettingsStore = createSettingsStore(browserStorage());

export function useSettings(): Settings {
  return useSyncExternalStore(settingsStore.subscribe, settingsStore.get, settingsStore.get);
}
